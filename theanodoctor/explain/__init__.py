"""`explain`: read an error log (streamed), match the signature catalogue, order causes root-first."""
