-- guard: the identity check alone, sent after the data scripts of layouts whose
-- scripts cannot touch the hash (identity.ts says why after is enough).
-- Parts: identity-guard
-- KEYS: [1] the parameters hash.
-- ARGV: [1] the filter id.
-- Returns: 1.
-- Atomic: one read. Writes nothing.
-- Refuses: identity-guard's errors.
return 1
