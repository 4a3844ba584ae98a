"""Where a sentence of a player's message names actions (pbp/plaintext/importer.py
reads what follows): each action's words, longest first, a typo allowed but
never on a name (`known`) nor for an action the player cannot take (`closed`);
a value only one action takes (`implied_by`); an action's words met again in
its own part.
"""

from __future__ import annotations

from pbp.model.vocabulary import Token
from pbp.plaintext.import_units import Unit
from pbp.plaintext.wording import EVERY, Grammar, Names, Trigger, find_names


def triggers(g: Grammar, toks: list[Token], texts: list[str], known=frozenset(),
             closed=frozenset()) -> list[tuple[int, int, list]]:
    """Each action's words in a unit, longest first, left to right: (start, end, triggers).
    Words inside a field's label ("la fais aller") are no action's."""
    out, i, n = [], 0, len(toks)
    label_end = [0] * n  # where the longest label covering each position ends
    for j in range(n):
        longest = max((p.at(texts, j) for p in g.labels.values()), default=0)
        for k in range(j, j + longest):
            label_end[k] = max(label_end[k], j + longest) if longest > 1 else label_end[k]
    while i < n:
        if toks[i].kind != "word":
            i += 1
            continue
        best, stack = None, [(g.triggers, i, 0)]
        while stack:
            node, j, exact = stack.pop()
            open_ = [t for t in node.get(None, ()) if t.action not in closed]
            if open_ and j > i:
                score = (j - i, exact)
                if best is None or score > best[0]:
                    best = (score, j, open_)
            if j < n and toks[j].kind == "word":
                # a name, or a capitalised word within a sentence (a proper noun), is spelt as written
                spelt = {texts[j]} if texts[j] in known or (toks[j].upper and j > 0) else ()
                for w in spelt or g.fuzzy(texts[j]):
                    if w in node:
                        stack.append((node[w], j + 1, exact + (w == texts[j])))
        if best is None or best[1] <= label_end[i]:
            i += 1
            continue
        out.append((i, best[1], best[2]))
        i = best[1]
    return out


def implied(g: Grammar, names: dict[str, Names], unit: Unit) -> list:
    """A sentence with no action's words that names a value only one action takes
    (`implied_by` in phrasings.yaml): "Mental + persuasion pour amadouer Vorn" is a
    check. The action starts at the first such name (its words are none)."""
    for key, action_id in g.implied.items():
        names = names.get(key)
        if names is None:
            continue
        matches = [m for m in find_names(names, unit.toks, EVERY, 0, len(unit.toks))
                   if not m.weak]
        if matches:
            at = min(m.start for m in matches)
            return [(at, at, [Trigger(action_id)])]
    return []


def continued(g: Grammar, lw: dict, texts: list[str], found: list) -> list:
    """An action's words met again in its own part say more of the same action, not
    a second one: with no sequence word before them ("je dors pour récupérer"), or
    when they are one of its fields' labels ("jet de Physique, jet instinctif")."""
    out, last_end = [], 0
    for start, end, triggers in found:
        between, last_end = range(last_end, start), end  # from the words met last, kept or not
        if out and {t.action for t in triggers} == {t.action for t in out[-1][2]}:
            action = triggers[0].action
            separated = any(lw["sequence"].at(texts, i, start) for i in between)
            labelled = any(g.labels.get(s.field) and g.labels[s.field].at(texts, start, end) == end - start
                           for s in g.slots.get(action, []))
            if not separated or labelled:
                continue
        out.append((start, end, triggers))
    return out
