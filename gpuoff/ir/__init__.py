"""The typed kernel IR: nodes, types, verifier, printer, reference interpreter."""
