"""Pure freight logic (classes, density, check digits, validation, money): no UI, no I/O."""
