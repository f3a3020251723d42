-- allot index, schema 3: dense vectors of objects, from local embedding models.

-- One vector per (model, text): `model` is the embedder's `id@version`, so
-- vectors of two models (or two versions of one) are never mixed, and
-- `text_hash` (sha1 of the embedded text) is the cache key: an object whose
-- text did not change is never embedded twice, across re-indexes and branch
-- switches. Rows no object uses any more are pruned by the embedding pass.
CREATE TABLE embeddings (
  model     TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  dim       INTEGER NOT NULL,
  vector    BLOB NOT NULL, -- float32, little-endian, unit length
  PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;

-- The hash of the text an object is embedded from (see indexer/embed/object-text.ts),
-- set by the embedding pass; NULL for objects written since (their vectors are due).
ALTER TABLE objects ADD COLUMN embed_hash TEXT;
CREATE INDEX objects_embed_hash ON objects(embed_hash);

-- Embedders whose vectors the store holds: a repository-trained model is kept
-- whole (`data`: its serialised vectors); a transformers.js model by its folder.
CREATE TABLE embedders (
  model TEXT PRIMARY KEY, -- id@version
  kind  TEXT NOT NULL,    -- 'repo' | 'transformers'
  data  BLOB NOT NULL
);
