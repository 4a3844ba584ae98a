"""The MJ's inputs that act (`effets:` and `effets_fin:` on an input, English
`effects:`, `end_effects:`): what the MJ decides in gm.yaml changes the game the
turn it is given, as the d100's MJ sets a starting trust, rolls a situational
die for the turn or deals damage.

    entrées_mj:
      degats:
        type: nombre
        par: personnage
        garder: false
        effets_fin:                  # at the end of the turn, after the actions
          - ajouter: {pv: -mj.degats}

`effects` run at the start of the turn in which gm.yaml gives the input (before
the players' actions), `end_effects` at its end (after the actions, before the
end of the game is judged); for a per-character input, once for each character
it is given for, in roster order, that character acting (`self`); for a game
input, once for each character in play. Their rolls are labelled
`<handle>.<input>.<table, check or dN>`.
"""

from __future__ import annotations

from . import rules as R

WHEN = {"start": "effects", "end": "end_effects"}


def due(program, gm_inputs: dict, state: dict, roster, when: str):
    """(handle, input, effects) of the inputs gm.yaml gave this turn that act at `when`
    (start, end), in the order `inputs` writes them, each character in roster order."""
    for (name, key), effects in program.input_effects.items():
        if key != WHEN[when] or name not in gm_inputs:
            continue
        given = gm_inputs[name]
        per_character = R.word(program.inputs[name].get("per", "game")) == "character"
        for handle in roster:
            if R.in_play(state, handle) and (not per_character or handle in given):
                yield handle, name, effects
