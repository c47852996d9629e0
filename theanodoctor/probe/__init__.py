"""The target-interpreter probe: a stdlib-only script run inside the user's Python
(``target_probe.py``) and the host side that starts it and reads its answer (``runner.py``)."""
