-- allot index, schema 4: vectors in the order they were written, so a reader
-- holding them in memory loads only the new ones (the daemon embeds in the
-- background while queries run; reloading every vector after each small batch
-- would stall them).
ALTER TABLE embeddings ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX embeddings_seq ON embeddings(model, seq);
