"""Spend and carrier reports over the booking ledger: plain SQL, no UI toolkit."""
