"""Host probes: facts about this machine (OS, driver, CUDA, cuDNN, compilers, config files).

Each probe is a plain function with explicit inputs (env mapping, home, OS name, search roots)
that returns a result envelope (:func:`theanodoctor.facts.envelope`) and never raises.
"""
