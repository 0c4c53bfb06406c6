"""Campaign models arrive with the campaigns issue; campaign history lives in the event store."""
