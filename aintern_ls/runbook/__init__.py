"""Runbook features beyond running one block: documents tested like doctest or cram."""
