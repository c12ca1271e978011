"""The flow feature: one multi round-trip conversation as plain data, and the one engine that drives it.

Spec: 2026-07-28 multi round-trip requests (SEP-2322). A `Flow` records every leg of a `tools/call`,
`prompts/get` or `resources/read` that the server answers with `InputRequiredResult`: the questions, the
answers and who gave them, the sealed `request_state` echoed back. Here: the model (`flow`, `round`), who
answers (`answers`, `asking`), sending one leg (`legs`), the
calls behind the magics (`calls`), checking a saved flow (`check`), ending a
wait (`interrupts`), the record and view a notebook shows (`record`, `view`) and a flow running live
(`live`). Nothing is imported here: `%load_ext` pays only for what the magics use.
"""
