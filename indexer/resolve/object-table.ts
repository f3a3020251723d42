import { SCOPE_KINDS, type ObjectKind } from '../types.ts';
import { withRoom } from '../typed-room.ts';
import { PairTable } from './pair-table.ts';

/** No object (a slot, a parent, a member). */
export const NONE = -1;

/**
 * The objects a resolver knows, by slot: the public id, the parent's slot, the kind and the name in typed arrays,
 * names interned (one copy each, released when no object has it), a parent's members by name in one pair table,
 * and per name how many named objects have it with the xor of their slots (the one object when only one has it).
 * About 100 bytes an object instead of an object per row, a Map per parent and a Set per repeated name.
 */
export class ObjectTable {
  private slotOf = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  private parents = new Int32Array(1024);
  private kinds = new Uint8Array(1024);
  private nameOf = new Int32Array(1024);
  private freeSlots: number[] = [];
  private kindCodes = new Map<string, number>();
  private kindNames: string[] = [];
  private scopeKind: boolean[] = [];
  private nameIds = new Map<string, number>();
  private names: (string | undefined)[] = [];
  /** Objects holding each name (every kind), to release it at zero. */
  private nameHolders = new Int32Array(1024);
  /** Named objects (not modules or files) per name, and the xor of their slots. */
  private namedCount = new Int32Array(1024);
  private namedXor = new Int32Array(1024);
  private freeNames: number[] = [];
  /** (parent slot, name id) -> the first member added with that name. */
  private members = new PairTable();

  /** The slot of an object id, or NONE. */
  slot(id: string): number {
    return this.slotOf.get(id) ?? NONE;
  }

  id(slot: number): string {
    return this.ids[slot]!;
  }

  parent(slot: number): number {
    return this.parents[slot];
  }

  kind(slot: number): string {
    return this.kindNames[this.kinds[slot]];
  }

  isScope(slot: number): boolean {
    return this.scopeKind[this.kinds[slot]];
  }

  /** The member of `parent` named `name` added first, or NONE. */
  member(parent: number, name: string): number {
    const n = this.nameIds.get(name);
    return n === undefined || parent === NONE ? NONE : this.members.get(parent, n);
  }

  /** The one named object (not a module or file) with this name, or NONE when none or several have it. */
  unique(name: string): number {
    const n = this.nameIds.get(name);
    return n !== undefined && this.namedCount[n] === 1 ? this.namedXor[n] : NONE;
  }

  /** Adds objects (parents anywhere in the batch or before it); members keep the first of a name in this order. */
  addAll(objects: readonly { id: string; parentId: string | null; kind: ObjectKind; name: string }[]): void {
    const slots = objects.map((o) => this.place(o.id, o.kind, o.name));
    objects.forEach((o, i) => {
      const slot = slots[i];
      const parent = o.parentId === null ? NONE : this.slot(o.parentId);
      this.parents[slot] = parent;
      if (parent !== NONE) this.members.addIfAbsent(parent, this.nameOf[slot], slot);
    });
  }

  /** The slot of a new object (an id held already keeps its slot and what it was added with). */
  private place(id: string, kind: ObjectKind, name: string): number {
    const held = this.slotOf.get(id);
    if (held !== undefined) return held;
    const slot = claim(this.freeSlots, this.ids, id);
    this.parents = withRoom(this.parents, slot);
    this.kinds = withRoom(this.kinds, slot);
    this.nameOf = withRoom(this.nameOf, slot);
    this.slotOf.set(id, slot);
    const n = this.intern(name);
    this.kinds[slot] = this.kindCode(kind);
    this.nameOf[slot] = n;
    if (kind !== 'module' && kind !== 'file') {
      this.namedCount[n]++;
      this.namedXor[n] ^= slot;
    }
    return slot;
  }

  /** Removes the objects of one file (all of them: members live in their parent's file). */
  removeFile(ids: readonly string[]): void {
    const slots = ids.map((id) => this.slot(id)).filter((s) => s !== NONE);
    for (const s of slots) if (this.parents[s] !== NONE) this.members.delete(this.parents[s], this.nameOf[s]);
    for (const s of slots) {
      const n = this.nameOf[s];
      const kind = this.kind(s);
      if (kind !== 'module' && kind !== 'file') {
        this.namedCount[n]--;
        this.namedXor[n] ^= s;
      }
      if (--this.nameHolders[n] === 0) {
        this.nameIds.delete(this.names[n]!);
        this.names[n] = undefined;
        this.freeNames.push(n);
      }
      this.slotOf.delete(this.ids[s]!);
      this.ids[s] = undefined;
      this.freeSlots.push(s);
    }
  }

  private intern(name: string): number {
    let n = this.nameIds.get(name);
    if (n === undefined) {
      n = claim(this.freeNames, this.names, name);
      this.nameHolders = withRoom(this.nameHolders, n);
      this.namedCount = withRoom(this.namedCount, n);
      this.namedXor = withRoom(this.namedXor, n);
      this.nameIds.set(name, n);
    }
    this.nameHolders[n]++;
    return n;
  }

  private kindCode(kind: string): number {
    let k = this.kindCodes.get(kind);
    if (k === undefined) {
      k = this.kindNames.length;
      this.kindCodes.set(kind, k);
      this.kindNames.push(kind);
      this.scopeKind.push(SCOPE_KINDS.has(kind as ObjectKind));
    }
    return k;
  }
}

/** A copy of `a` with room past `index` (twice its length at least), the new cells zero. */
/** Puts a value in a freed place of a list (or at its end) and returns its index. */
function claim<T>(free: number[], list: (T | undefined)[], value: T): number {
  const at = free.pop() ?? list.length;
  list[at] = value;
  return at;
}
