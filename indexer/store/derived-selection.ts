import { isTestPath } from '../paths.ts';
import type { ViewKind } from '../types.ts';
import { withRoom } from '../typed-room.ts';

/** Derived views kept per (object, view kind): the first few uses, by path and line. */
export const DERIVED_PER_KIND = 5;

const KINDS: readonly ViewKind[] = ['callsite', 'import', 'testref'];

/** One selected derived view: a use of an object, the line of a file it lives in. */
export interface DerivedView {
  objectId: string;
  fileId: number;
  kind: ViewKind;
  line: number;
}

/**
 * The selected derived views, taken from a selection: entry `e` is the `e % DERIVED_PER_KIND`th use of list
 * `e / DERIVED_PER_KIND`; lists in the order they began, each in path and line order.
 */
export interface Selected {
  /** Marks the selected view equal to a stored one as stored; false when none is selected. */
  match(objectId: string, fileId: number, kind: ViewKind, line: number): boolean;
  /** Every selected view not marked stored, lists in the order they began, each list in path and line order. */
  unstored(): Int32Array;
  /** What entry `e` selects. */
  view(e: number): DerivedView;
  fileId(e: number): number;
  markStored(e: number): void;
  isStored(e: number): boolean;
}

/**
 * Rule (derived views): each (object, view kind) keeps its first DERIVED_PER_KIND distinct uses by path and line.
 * Uses may come in any order: each kind's list is kept sorted and bounded as they arrive. Lists are found by object,
 * then kind, and kept in the order they began, which is the order views are inserted in. Held in typed arrays (a
 * file, rank and line per use, an object id per list): about 70 bytes a list instead of an object per use.
 * `rank` is each file's place in path order.
 */
export function derivedSelection(rank: Map<number, number>) {
  const testPath = new Map<string, boolean>();
  let listsOf = new Map<string, number>();
  /** Per object (in `listsOf` order): its list per kind, +1 (0: none yet). */
  let kindLists = new Int32Array(0);
  let listObject: string[] = [];
  let listKind = new Uint8Array(0);
  let listLength = new Uint8Array(0);
  let useFile = new Int32Array(0);
  let useRank = new Int32Array(0);
  let useLine = new Int32Array(0);

  const newList = (objectId: string, kind: number): number => {
    const l = listObject.length;
    listObject.push(objectId);
    listKind = withRoom(listKind, l);
    listLength = withRoom(listLength, l);
    listKind[l] = kind;
    const end = (l + 1) * DERIVED_PER_KIND;
    useFile = withRoom(useFile, end);
    useRank = withRoom(useRank, end);
    useLine = withRoom(useLine, end);
    return l;
  };
  const put = (e: number, fileId: number, r: number, line: number) => {
    useFile[e] = fileId;
    useRank[e] = r;
    useLine[e] = line;
  };

  return {
    want(r: { kind: string; path: string; fileId: number; line: number }, target: string): void {
      let test = testPath.get(r.path);
      if (test === undefined) testPath.set(r.path, (test = isTestPath(r.path)));
      const kind = r.kind === 'import' ? 1 : test ? 2 : 0;
      const fileRank = rank.get(r.fileId)!;
      let o = listsOf.get(target);
      if (o === undefined) {
        listsOf.set(target, (o = listsOf.size));
        kindLists = withRoom(kindLists, o * 3 + 2);
      }
      const held = kindLists[o * 3 + kind] - 1;
      if (held < 0) {
        const l = newList(target, kind);
        kindLists[o * 3 + kind] = l + 1;
        put(l * DERIVED_PER_KIND, r.fileId, fileRank, r.line);
        listLength[l] = 1;
        return;
      }
      const base = held * DERIVED_PER_KIND;
      const n = listLength[held];
      const before = (e: number) => fileRank < useRank[e] || (fileRank === useRank[e] && r.line < useLine[e]);
      let i = n;
      while (i > 0 && before(base + i - 1)) i--;
      if (i >= DERIVED_PER_KIND || (i > 0 && useFile[base + i - 1] === r.fileId && useLine[base + i - 1] === r.line)) return;
      for (let j = Math.min(n, DERIVED_PER_KIND - 1); j > i; j--) put(base + j, useFile[base + j - 1], useRank[base + j - 1], useLine[base + j - 1]);
      put(base + i, r.fileId, fileRank, r.line);
      if (n < DERIVED_PER_KIND) listLength[held] = n + 1;
    },
    /** The views selected so far; the selection starts again empty. */
    take(): Selected {
      const lists = listsOf;
      const kindsOf = kindLists;
      const objects = listObject;
      const kinds = listKind;
      const lengths = listLength;
      const files = useFile;
      const lines = useLine;
      const stored = new Uint8Array(objects.length * DERIVED_PER_KIND);
      listsOf = new Map();
      kindLists = new Int32Array(0);
      listObject = [];
      listKind = new Uint8Array(0);
      listLength = new Uint8Array(0);
      useFile = new Int32Array(0);
      useRank = new Int32Array(0);
      useLine = new Int32Array(0);
      return {
        match(objectId, fileId, kind, line) {
          const o = lists.get(objectId);
          const k = KINDS.indexOf(kind);
          const l = o === undefined || k < 0 ? -1 : kindsOf[o * 3 + k] - 1;
          if (l < 0) return false;
          for (let e = l * DERIVED_PER_KIND; e < l * DERIVED_PER_KIND + lengths[l]; e++) {
            if (files[e] !== fileId || lines[e] !== line || stored[e]) continue;
            stored[e] = 1;
            return true;
          }
          return false;
        },
        unstored() {
          let n = 0;
          for (let l = 0; l < objects.length; l++) for (let k = 0; k < lengths[l]; k++) if (!stored[l * DERIVED_PER_KIND + k]) n++;
          const out = new Int32Array(n);
          n = 0;
          for (let l = 0; l < objects.length; l++) for (let k = 0; k < lengths[l]; k++) if (!stored[l * DERIVED_PER_KIND + k]) out[n++] = l * DERIVED_PER_KIND + k;
          return out;
        },
        view: (e) => ({ objectId: objects[(e / DERIVED_PER_KIND) | 0], fileId: files[e], kind: KINDS[kinds[(e / DERIVED_PER_KIND) | 0]], line: lines[e] }),
        fileId: (e) => files[e],
        markStored: (e) => void (stored[e] = 1),
        isStored: (e) => stored[e] === 1,
      };
    },
  };
}
