"""The version-matrix resolver: constraints -> pinned stack with reasons, conflicts explained;
emitters and provisioning."""
