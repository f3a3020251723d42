/**
 * Sessions: an agent asks for context many times in one task, and each call
 * should bring new evidence. Objects (and files) already sent unchanged in the
 * session are not given budget again; they are named instead. "Unchanged" is
 * a digest of the object's (file's) text: an edited object is shown again.
 */
import { contentHash } from '../indexer/extract/extract-file.ts';
import type { Retriever } from '../indexer/retrieve/retriever.ts';
import type { Candidate } from '../indexer/types.ts';
import type { Allocation, ObjectSource } from './types.ts';

/** What a session has already been sent: object id (or file path) -> digest of the text sent. */
export type ShownDigests = ReadonlyMap<string, string>;

/** An object left out because the session already has it. */
export interface AlreadyShown {
  path: string;
  /** The object's qualified name (for files: the path). */
  name: string;
}


/** The line a model reads in place of an object it already has. */
export function alreadyShownLine(items: readonly AlreadyShown[]): string {
  return items.length ? `(already shown: ${items.map((i) => (i.name === i.path ? i.path : `${i.path}:${i.name}`)).join(', ')})` : '';
}

/**
 * A retriever that drops the candidates of objects the session already has
 * unchanged, and records which of them would have competed for a slot: those
 * met before `slots` other objects had been seen in the ranking.
 * @example const r = withoutShown(bm25, shown, source, 5); buildContext(q, r.retriever, source); r.alreadyShown()
 */
export function withoutShown(base: Retriever, shown: ShownDigests, source: ObjectSource, slots: number): { retriever: Retriever; alreadyShown(): AlreadyShown[] } {
  let skipped: AlreadyShown[] = [];
  return {
    retriever: {
      name: base.name,
      retrieve(query, k) {
        skipped = [];
        const all = base.retrieve(query, k);
        if (!shown.size) return all;
        const ids = [...new Set(all.map((c) => c.objectId).filter((id) => shown.has(id)))];
        const texts = source.objects(ids);
        const unchanged = new Set(ids.filter((id) => texts.has(id) && contentHash(texts.get(id)!.text) === shown.get(id)));
        const kept: Candidate[] = [];
        const seen = new Set<string>();
        let others = 0;
        for (const c of all) {
          if (!unchanged.has(c.objectId)) {
            kept.push(c);
            if (!seen.has(c.objectId)) (seen.add(c.objectId), others++);
          } else if (!seen.has(c.objectId)) {
            seen.add(c.objectId);
            if (others < slots) skipped.push({ path: c.path, name: c.objectName });
          }
        }
        return kept;
      },
    },
    alreadyShown: () => skipped,
  };
}

/**
 * The objects an allocation sent whole, with the digest of their text now: those rendered whole, and those nested
 * whole in another's rendering (containment). A clipped object is not "sent": a later call may need the lines its
 * window left out.
 */
export function shownObjects(allocation: Allocation, source: ObjectSource): Map<string, string> {
  const ids = allocation.trace.render.filter((r) => r.outcome === 'whole').map((r) => r.objectId);
  for (const b of allocation.blocks) {
    for (const n of b.contains ?? []) if (n.how === 'inside whole parent' || n.how === 'expanded in parent outline') ids.push(n.objectId);
  }
  const out = new Map<string, string>();
  for (const [id, o] of source.objects(ids)) out.set(id, contentHash(o.text));
  return out;
}
