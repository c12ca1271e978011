"""The rotation feature: key rotation on a fleet of real server instances, one phase at a time.

Spec context: the SDK docs' "Protecting requestState" -- `keys[0]` seals, every key of the ring unseals, and
a zero-downtime rotation is three steps, each rolled out to every instance before the next. Here: a fleet of
instances behind a round-robin router (`fleet`), the phase stepper and its acceptance matrix (`stepper`),
rotation under load (`load`), their record and view, and a stepper widget (`widget`).
"""
