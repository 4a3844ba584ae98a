"""One turn of murder: validated orders in the order of play -> the new state and
the events that tell it (README.md explains every decision).

1. dead innocents haunt a room (private answer, maybe a private warning);
2. the living play in the fixed order: witnesses, then investigators by sheet
   number; each: set a trap (`pieger`), interrogate (`interroger`), then move
   (`deplacer`), checked against the positions of that moment;
3. prisoners plead (released, or executed after the last failed plea);
4. on accusation days, the investigators' vote sends someone to prison;
5. dead murderers possess living innocents and move them;
6. stays and companions are counted, the end of the game is checked.

Secrecy: roles, scores, sheets, alibis, trap positions and ghost warnings only
ever go into private or gm events, until the rules reveal them (an execution
reveals the sheet; the end of the game reveals every sheet).

Also here: the board and the MJ's table as events (`positions`, `summary`),
which the set-up and `pbp status` show too.
"""

from __future__ import annotations

from pbp.model import events as ev
from pbp.rulesets.murder.board import Board, board_of
from pbp.rulesets.murder.rules import (ALIVE, DEAD, INNOCENT, INVESTIGATOR, MURDERER, PRISON, accusation_day, clock,
                                       forced_step, genres, movement_dice, murderers, occupants, outcome,
                                       own_genres, plan, sheet, sheet_data, update_companions, vote_count, winners)


def resolve(rules: dict, state: dict, scenario, orders: dict, dice) -> tuple[dict, list[ev.Event]]:
    """The turn after `state` (a private copy, mutated): the new state and its events."""
    turn = Turn(rules, state, scenario, orders, dice)
    turn.run()
    return turn.state, turn.events


# -- what the posts show of a state ----------------------------------------------------------

def positions(state: dict, board: Board) -> ev.Event:
    """The board as the thread sees it: who is where, in prison, dead (and how)."""
    players = state["players"]
    rooms = []
    for room in board.order:
        here = occupants(state, room)
        if here:
            rooms.append({"room": board.name(room), "players": here})
    prison = [h for h in state["play_order"] if players[h]["status"] == PRISON]
    dead = [{"player": h, "cause": players[h]["died"]["cause"], "turn": players[h]["died"]["turn"]}
            for h in state["play_order"] if players[h]["status"] == DEAD]
    return ev.public("positions", rooms=rooms, prison=prison, dead=dead)


def summary(rules: dict, state: dict, board: Board) -> ev.Event:
    """The MJ's table: every player's role, sheet, scores and whereabouts, and the traps."""
    rows = []
    for h in state["play_order"]:
        p = state["players"][h]
        rows.append({"player": h, "role": p["role"], "lot": rules["lots"][p["lot"]]["key"],
                     "sheet": p["sheet"], "scores": dict(p["scores"]), "status": p["status"],
                     "room": board.name(p["room"]), "turns_here": p["turns_here"],
                     "warnings": [board.name(r) for r in p["warnings"]],
                     "prison": dict(p["prison"]) if p["prison"] else None})
    traps = [{"room": board.name(r), "by": t["by"], "turn": t["turn"]} for r, t in sorted(state["traps"].items())]
    return ev.gm("summary", players=rows, traps=traps, over=state["over"], winner=state["winner"])


def status(rules: dict, state: dict, scenario) -> list[ev.Event]:
    """`pbp status`: the next turn's clock, the MJ's table and the board."""
    board = board_of(scenario)
    return [ev.gm("clock", **clock(rules, state["turn"] + 1)), ev.gm("genres", genres=genres(scenario)),
            summary(rules, state, board), positions(state, board)]


# -- one turn -----------------------------------------------------------------------------------

class Turn:
    """The resolution of one turn: mutates a private copy of the state, collects events."""

    def __init__(self, rules: dict, state: dict, scenario, orders: dict, dice):
        self.rules, self.state, self.scenario, self.dice = rules, state, scenario, dice
        self.orders = orders
        self.board = board_of(scenario)
        self.players = state["players"]
        self.events: list[ev.Event] = []
        self.held: list[ev.Event] | None = None
        self.played: set[str] = set()
        state["turn"] = state["turn"] + 1
        self.turn = state["turn"]
        self.start_rooms = {h: p["room"] for h, p in self.players.items() if p["status"] == ALIVE}

    # -- small helpers
    def name(self, room):
        return self.board.name(room)

    def action(self, handle: str, action_id: str):
        order = self.orders.get(handle)
        if order is None:
            return None
        for a in order.actions:
            if a.id == action_id:
                return a
        return None

    def occupants(self, room, exclude=None):
        return occupants(self.state, room, exclude)

    def emit(self, event):
        (self.held if self.held is not None else self.events).append(event)

    def hold(self):
        """Keep the events of a walk (traps) until the move itself is told."""
        self.held = []

    # -- the turn
    def run(self):
        self.emit(ev.public("clock", **clock(self.rules, self.turn)))
        self.emit(ev.public("genres", genres=genres(self.scenario)))
        self.haunting()
        for h in self.state["play_order"]:
            if self.players[h]["status"] == ALIVE:
                self.play(h)
            self.played.add(h)
        self.pleas()
        if accusation_day(self.rules, self.turn):
            self.accusation()
        self.possessions()
        self.finish()

    # -- 1. dead innocents haunt
    def haunting(self):
        for h in self.state["play_order"]:
            p = self.players[h]
            act = self.action(h, "hanter")
            if p["status"] != DEAD or p["role"] != INNOCENT or act is None:
                continue
            room = self.board.lookup(act.arg.get("salle"))
            target = act.arg.get("avertir")
            armed = room in self.state["traps"]
            data = {"room": self.name(room), "armed": armed, "target": target, "roll": None, "distance": None,
                    "warned": False, "reason": None}
            if target is not None:
                q = self.players[target]
                if not armed:
                    data["reason"] = "no_trap"
                elif q["status"] != ALIVE:
                    data["reason"] = "target_gone"
                else:
                    roll = self.dice.roll(f"{h}.portee", self.rules["ghosts"]["warning_range"],
                                          f"portée de l'avertissement de {h}")
                    distance = self.board.distance(room, q["room"])
                    data.update(roll=roll, distance=distance)
                    if distance is not None and distance <= roll.total:
                        data["warned"] = True
                        if room not in q["warnings"]:
                            q["warnings"].append(room)
                        self.emit(ev.private(target, "warning", room=self.name(room)))
                    else:
                        data["reason"] = "too_far"
            self.emit(ev.private(h, "haunt", **data))
            self.emit(ev.gm("haunt_gm", ghost=h, **data))

    # -- 2. the living, in the order of play
    def play(self, h: str):
        if self.action(h, "pieger") is not None:
            self.set_trap(h)
        act = self.action(h, "interroger")
        if act is not None:
            self.interrogate(h, act.arg)
        act = self.action(h, "deplacer")
        self.move(h, self.board.lookup(act.arg) if act is not None else None)

    def set_trap(self, h: str):
        p = self.players[h]
        room = p["room"]
        others = self.occupants(room, h)
        if others or room in self.state["traps"]:
            reason = "not_alone" if others else "already_trapped"
            self.emit(ev.private(h, "trap_failed", room=self.name(room), reason=reason, others=others))
            return
        self.state["traps"][room] = {"by": h, "turn": self.turn}
        self.emit(ev.private(murderers(self.state), "trap_set", setter=h, room=self.name(room)))

    def interrogate(self, inv: str, w: str):
        pi, pw = self.players[inv], self.players[w]
        if pw["status"] != ALIVE or pw["room"] != pi["room"]:
            self.emit(ev.public("interrogation_missed", investigator=inv, witness=w, room=self.name(pi["room"])))
            return
        others = [x for x in self.occupants(pi["room"]) if x not in (inv, w)
                  and self.players[x]["role"] != INVESTIGATOR]
        roll = None
        if others:
            roll = self.dice.roll(f"{w}.verite", self.rules["truth_dice"], f"interrogatoire de {w}")
        score_name = self.rules["truth_score"]
        score = pw["scores"].get(score_name) if pw["role"] == INNOCENT else None
        if pw["role"] == MURDERER:
            instruction = "free"
        elif roll is not None and roll.total >= score:
            instruction = "no_truth"
        else:
            instruction = "truth"
        room = self.name(pi["room"])
        shown_score = score_name if score is not None else None
        self.emit(ev.public("interrogation", investigator=inv, witness=w, room=room, others=others))
        self.emit(ev.private(w, "interrogated", investigator=inv, room=room, others=others, roll=roll,
                             instruction=instruction, score_name=shown_score, score=score))
        self.emit(ev.private(inv, "interrogation_report", witness=w, room=room, others=others))
        alibi = str(sheet(self.rules, self.scenario, pw).get("alibi", "")).strip() or None
        self.emit(ev.gm("interrogation_gm", investigator=inv, witness=w, role=pw["role"], roll=roll,
                        score_name=shown_score, score=score, instruction=instruction, alibi=alibi))

    # movement -------------------------------------------------------------------------------------
    def must_leave(self, h: str) -> tuple[str | None, list[str]]:
        """Why a player may not stay where they are: the stay limit ("stay"), or
        last turn's companions who already played and stayed ("companion", with
        them); (None, []): they may stay."""
        p = self.players[h]
        if p["turns_here"] >= self.rules["max_stay"]:
            return "stay", []
        stayed = [c for c in p["companions"] if c in self.played and self.players[c]["status"] == ALIVE
                  and self.players[c]["room"] == p["room"]]
        return ("companion", stayed) if stayed else (None, [])

    def stop(self, h: str, rooms: list[str], full: list[str], cum: list[int], reason: str) -> dict:
        """Where and why an ordered move stopped short of its destination, as
        the rules say (public: positions and the board are): the room not
        entered or not stopped in, and who was there for the pair rule."""
        if reason not in ("short", "blocked", "companion") or len(rooms) >= len(full):
            return {}
        room = full[len(rooms)]
        out = {"stop_room": self.name(room)}
        if reason == "short":
            out["stop_squares"] = cum[len(rooms)]
        elif reason == "blocked":
            out["limit"] = self.rules["witness_room_limit"]
        else:
            out["stop_with"] = [c for c in self.occupants(room, h) if c in self.players[h]["companions"]]
        return out

    @staticmethod
    def public_why(detail: dict) -> dict:
        """What the thread is told of a move that did not go as ordered: the rule
        that stopped it and why the mover had to leave (public: the board, the
        positions and the stays are; the destination is not)."""
        stop = detail["reason"] if detail["reason"] in ("short", "blocked", "companion") else None
        why = {"stop": stop, "obliged": detail["obliged"], "stuck": detail.get("stuck", False)}
        shown = (("stop_room", "stop_squares", "limit", "stop_with") if stop else ()) + ("max_stay", "obliged_with")
        why.update((k, detail[k]) for k in shown if k in detail)
        return why

    def move(self, h: str, dest: str | None):
        p = self.players[h]
        start = p["room"]
        obliged, stayed = self.must_leave(h)
        roll = None
        detail = {"destination": self.name(dest), "roll": None, "obliged": obliged, "reason": None,
                  "companion": None, "path": [], "cum": [], "forced": False,
                  **({"max_stay": self.rules["max_stay"]} if obliged == "stay" else
                     {"obliged_with": stayed} if obliged else {})}
        rooms = [start]
        if dest is not None:
            roll = self.dice.roll(f"{h}.deplacement", movement_dice(self.rules, p["role"]), f"déplacement de {h}")
            detail["roll"] = roll
            # the whole shortest path and its lengths: the player checks where the roll stopped them
            full, cum = self.board.path(start, dest)
            detail.update(path=[self.name(r) for r in full], cum=cum)
            rooms, reason = plan(self.rules, self.state, self.board, h, dest, roll.total)
            detail["reason"] = reason
            detail.update(self.stop(h, rooms, full, cum, reason))
        if len(rooms) == 1 and obliged:
            step = forced_step(self.rules, self.state, self.board, h)
            if step is None:
                detail["stuck"] = True
                self.emit(ev.gm("stuck", player=h, room=self.name(start), obliged=obliged))
            else:
                rooms = [start, step]
                detail["forced"] = True
        self.hold()
        outcome_ = self.walk(h, rooms[1:], possessed=False)
        held, self.held = self.held, None
        if outcome_ and not detail["forced"]:  # (a trap on the forced step is told by its own events)
            detail["reason"] = outcome_
        end = p["room"] if p["status"] == ALIVE else (p["died"] or {}).get("room")
        walked = rooms[:rooms.index(end) + 1] if end in rooms else [start]
        why = self.public_why(detail)
        if len(walked) > 1:
            self.emit(ev.public("moved", player=h, path=[self.name(r) for r in walked], steps=self.steps(walked),
                                roll=roll, forced=detail["forced"], **why))
        else:
            self.emit(ev.public("stayed", player=h, room=self.name(start), roll=roll, **why))
        detail["reached"] = self.name(end)
        if dest is not None or obliged:
            self.emit(ev.private(h, "move_detail", **detail))
        self.events.extend(held)

    def steps(self, rooms: list[str]) -> list[int]:
        """The length in squares of each passage along `rooms`."""
        return [self.board.adj[a][b] for a, b in zip(rooms, rooms[1:])]

    def walk(self, h: str, rooms: list[str], possessed: bool) -> str | None:
        """Enter `rooms` one after the other; traps fire on the way. Returns
        "trap"/"died"/None."""
        p = self.players[h]
        for room in rooms:
            empty = not self.occupants(room, h)
            p["room"] = room
            if room not in self.state["traps"]:
                continue
            if possessed:
                self.state["traps"].pop(room)
                self.clear_warnings(room)
                self.emit(ev.public("trap_fired", player=h, room=self.name(room), survived=False,
                                    roll=None, score=None))
                self.kill(h, room, "trap")
                return "died"
            if room in p["warnings"]:
                self.state["traps"].pop(room)
                self.clear_warnings(room)
                self.emit(ev.private(h, "disarmed", room=self.name(room)))
                told = [m for m in murderers(self.state) if m != h]
                if told:
                    self.emit(ev.private(told, "trap_disarmed", room=self.name(room)))
                continue
            if empty:
                return "died" if not self.fire(h, room) else "trap"
        return None

    def fire(self, h: str, room: str) -> bool:
        """The trap of `room` goes off on `h`: 1d10 >= their score survives. Whether they did."""
        p = self.players[h]
        trap = self.state["traps"].pop(room)
        self.clear_warnings(room)
        score_name = self.rules["trap_score"][p["role"]]
        score = p["scores"][score_name]
        roll = self.dice.roll(f"{h}.piege", self.rules["trap_dice"], f"piège de {self.name(room)}")
        survived = roll.total >= score
        public_roll = p["role"] == INVESTIGATOR  # only the investigators' survival score is public
        self.emit(ev.public("trap_fired", player=h, room=self.name(room), survived=survived,
                            roll=roll if public_roll else None, score=score if public_roll else None))
        self.emit(ev.private(h, "trap_roll", room=self.name(room), roll=roll, score_name=score_name, score=score,
                             survived=survived))
        self.emit(ev.gm("trap_gm", player=h, room=self.name(room), setter=trap["by"], roll=roll,
                        score_name=score_name, score=score, survived=survived))
        if not survived:
            self.kill(h, room, "trap")
        return survived

    def clear_warnings(self, room: str):
        for p in self.players.values():
            if room in p["warnings"]:
                p["warnings"].remove(room)

    def kill(self, h: str, room: str | None, cause: str):
        p = self.players[h]
        p.update(status=DEAD, room=None, turns_here=0, companions=[], prison=None, warnings=[],
                 died={"turn": self.turn, "room": room, "cause": cause})

    # -- 3. prison
    def pleas(self):
        conf = self.rules["prison"]
        for h in self.state["play_order"]:
            p = self.players[h]
            if p["status"] != PRISON or p["prison"]["since"] >= self.turn:
                continue
            score_name = self.rules["plea_score"][p["role"]]
            score = p["scores"][score_name]
            roll = self.dice.roll(f"{h}.plaidoirie", conf["dice"], f"plaidoirie de {h}")
            p["prison"]["pleas"] += 1
            released = roll.total >= score
            left = conf["turns"] - p["prison"]["pleas"]
            self.emit(ev.private(h, "plea_roll", roll=roll, score_name=score_name, score=score,
                                 released=released, left=left))
            self.emit(ev.gm("plea_gm", player=h, roll=roll, score_name=score_name, score=score,
                            released=released, left=left))
            if released:
                room = self.board.lookup(self.rules.get("release_room")) or self.board.hall
                p.update(status=ALIVE, room=room, turns_here=0, companions=[], prison=None)
                self.emit(ev.public("plea", player=h, released=True, left=left, room=self.name(room)))
            elif left <= 0:
                self.emit(ev.public("plea", player=h, released=False, left=0, room=None))
                self.emit(ev.public("executed", **sheet_data(self.rules, self.scenario, h, p)))
                self.kill(h, None, "executed")
            else:
                self.emit(ev.public("plea", player=h, released=False, left=left, room=None))

    # -- 4. accusation
    def accusation(self):
        votes = {}
        for h in self.state["play_order"]:
            p = self.players[h]
            act = self.action(h, "accuser")
            if p["role"] == INVESTIGATOR and p["status"] == ALIVE and act is not None:
                votes[h] = act.arg
        count = vote_count(self.rules, self.state, votes)
        jailed, tie = count["jailed"], count["tie"]
        if jailed:
            p = self.players[jailed]
            p.update(status=PRISON, room=None, turns_here=0, companions=[], warnings=[],
                     prison={"since": self.turn, "pleas": 0})
        public = self.rules["vote_count"] == "public"
        # the count is the thread's or the MJ's alone (`vote_count`): who voted for whom
        # then never reaches a public event
        self.emit(ev.public("accusation", jailed=jailed, tie=tie, prison_turns=self.rules["prison"]["turns"],
                            count=count if public else None))
        if not public:
            self.emit(ev.gm("vote_count", **count))

    # -- 5. dead murderers possess
    def possessions(self):
        for g in self.state["play_order"]:
            p = self.players[g]
            act = self.action(g, "posseder")
            if p["status"] != DEAD or p["role"] != MURDERER or act is None:
                continue
            target = act.arg.get("cible")
            dest = self.board.lookup(act.arg.get("salle"))
            q = self.players[target]
            data = {"target": target, "room": self.name(dest), "roll": None, "path": [], "steps": [],
                    "died": False, "reason": None}
            if q["status"] != ALIVE or q["room"] == dest:
                data["reason"] = "target_gone" if q["status"] != ALIVE else "already_there"
            else:
                roll = self.dice.roll(f"{g}.possession", self.rules["ghosts"]["possession"], f"possession par {g}")
                data["roll"] = roll
                rooms, reason = plan(self.rules, self.state, self.board, target, dest, roll.total)
                data["reason"] = reason
                self.hold()
                walked_out = self.walk(target, rooms[1:], possessed=True)
                held, self.held = self.held, None
                end = q["room"] if q["status"] == ALIVE else q["died"]["room"]
                walked = rooms[:rooms.index(end) + 1]
                data.update(path=[self.name(r) for r in walked], steps=self.steps(walked),
                            died=walked_out == "died")
                if len(walked) > 1:
                    self.emit(ev.public("sleepwalk", player=target, path=data["path"], steps=data["steps"]))
                    self.emit(ev.private(target, "possessed", path=data["path"], steps=data["steps"], died=data["died"]))
                self.events.extend(held)
            self.emit(ev.private(g, "possession", **data))

    # -- 6. end of turn
    def finish(self):
        state, players = self.state, self.players
        for h in state["play_order"]:
            p = players[h]
            if p["status"] != ALIVE:
                continue
            if self.start_rooms.get(h) == p["room"]:
                p["turns_here"] += 1
            else:
                p["turns_here"] = 1
        update_companions(state)
        for p in players.values():
            p["warnings"] = [r for r in p["warnings"] if r in state["traps"]]
        self.check_end()
        self.emit(positions(state, self.board))
        next_turn = self.turn + 1
        if not state["over"]:
            self.emit(ev.public("next", **clock(self.rules, next_turn)))
        for h in state["play_order"]:
            self.emit(ev.private(h, "situation", **self.situation(h, next_turn)))
        self.emit(summary(self.rules, state, self.board))

    def situation(self, h: str, next_turn: int) -> dict:
        """A player's private reminder at the end of the turn."""
        state, p = self.state, self.players[h]
        data = {"status": p["status"], "role": p["role"], "room": self.name(p["room"]),
                "turns_here": p["turns_here"], "must_leave": p["status"] == ALIVE
                and p["turns_here"] >= self.rules["max_stay"],
                "companions": list(p["companions"]), "warnings": [self.name(r) for r in p["warnings"]],
                "prison_left": (self.rules["prison"]["turns"] - p["prison"]["pleas"]) if p["prison"] else None,
                "traps": [], "accomplices": [], "clock": clock(self.rules, next_turn), "over": state["over"],
                "winner": state["winner"], "died": dict(p["died"]) if p["died"] else None,
                "genres": own_genres(self.rules, self.scenario, state, h)}
        if p["role"] == MURDERER:
            data["traps"] = [self.name(r) for r in self.board.order if r in state["traps"]]
            data["accomplices"] = [m for m in murderers(state) if m != h]
        return data

    def check_end(self):
        side, reason = outcome(self.state)
        if side is None:
            return
        state = self.state
        state["over"], state["winner"] = True, side
        sheets = [sheet_data(self.rules, self.scenario, h, self.players[h]) for h in state["play_order"]]
        self.emit(ev.public("game_over", winner=side, reason=reason, winners=winners(state, side), sheets=sheets))
