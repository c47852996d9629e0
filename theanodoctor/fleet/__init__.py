"""Fleet view: merge many snapshots/reports into one table (`summarize`)."""
