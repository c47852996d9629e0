"""`theanodoctor port`: rewrite code written for Theano 0.7-0.9 onto Theano 1.0.5 by the rules in
profiles/port_rules.yaml, through a lossless syntax tree (fissix), as a plan for the safe file
layer (theanodoctor/repair/)."""
