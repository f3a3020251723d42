/**
 * Public shapes of the allocator: what it reads (ObjectSource), what it
 * returns (Allocation) and the trace that explains every decision.
 * The allocator never opens a database, file or socket: everything it needs
 * comes through ObjectSource.
 */
import type { ObjectKind, ViewKind } from '../indexer/types.ts';
import type { TokenizerName } from '../indexer/tokenizer.ts';

/** An object with its verbatim source. Lines are 1-based and inclusive. */
export interface ObjectText {
  id: string;
  path: string;
  name: string;
  qualifiedName: string;
  kind: ObjectKind;
  signature: string;
  startLine: number;
  endLine: number;
  /** The enclosing object's id (null at the top of a file), when the source knows it. */
  parentId?: string | null;
  /** The object's docstring or leading comment, when the source knows it: outlines list its first line. */
  docstring?: string | null;
  /**
   * The object's source lines startLine..endLine, verbatim, joined with '\n'.
   * CRLF may be present: the allocator splits on /\r?\n/ and re-joins with '\n'.
   */
  text: string;
  /**
   * `text` split into lines as the allocator splits it, when the source holds them already: rendering takes them
   * instead of splitting the text again (a module's text is its whole file).
   */
  lines?: readonly string[];
}

/** An object without its text. */
export type ObjectInfo = Omit<ObjectText, 'text'>;

/** The read interface the allocator needs; the store implements it. */
export interface ObjectSource {
  /** Objects with their verbatim source text. Unknown ids are absent from the map. */
  objects(ids: string[]): Map<string, ObjectText>;
  /**
   * Objects without their text, for ranking and companions (only the objects that render need their text, and
   * reading a text can mean reading its whole file). Unknown ids are absent. Without it, `objects` is used.
   */
  infos?(ids: string[]): Map<string, ObjectInfo>;
  /** All objects of one fiber (file path), without text, for the companion step when no retrieved non-core object qualifies. */
  fiberObjects(path: string): ObjectInfo[];
}

/**
 * `interface`: a further object found through structure, listed (whole, as an outline or as its head) with budget
 * the K slots left; `fill`: any other further object the fill adds (whole or as an outline).
 */
export type Role = 'core' | 'companion' | 'interface' | 'fill';

/** A view a position absorbed (the strongest first). */
export interface AbsorbedView {
  viewId: number;
  kind: ViewKind;
  score: number;
  /** Why the retriever found it (`bm25`, `structural: imported by the query as X`). */
  reason: string;
  path: string;
  startLine: number;
  endLine: number;
}

/**
 * One competitor for a slot: a canonical object (quotient), or a single view
 * (the noQuotient ablation), or an unretrieved object of a core fiber.
 */
export interface Position {
  /** Unique within one ranked list: the object id, or `view:<id>` for a fragment. */
  key: string;
  objectId: string;
  /** Normalised file path of the object. */
  fiber: string;
  score: number;
  /** 1-based rank among retrieved positions; 0 for fiber objects. */
  rank: number;
  /** Lines to render; null renders the whole object. */
  span: { path: string; startLine: number; endLine: number } | null;
  views: AbsorbedView[];
  origin: 'retrieved' | 'fiber';
  /** Some view was found through structure by a code query (`Candidate.viaStructure`): the object renders as its head. */
  viaStructure?: boolean;
  /** The evidence of the object's file, 0..1, when the retriever weighs files (`Candidate.fileScore`). */
  fileScore?: number;
  /** The support of the query's evidence, 0..1, when the retriever reports it (`Candidate.relevance`): the fill's stop. */
  relevance?: number;
  /** A class the query calls members through (`Candidate.receiver`): the fill lists it as an outline, not a head. */
  receiver?: boolean;
  /** Retrieved for a question (`Candidate.question`): the fill gives it at most b_obj. */
  question?: boolean;
}

/** One rendered object of the context. */
export interface Block {
  path: string;
  /** The object's qualified name. */
  object: string;
  kind: ObjectKind;
  role: Role;
  score: number;
  /** The object's (or, under noQuotient, the view's) line span. */
  startLine: number;
  endLine: number;
  /** Lines actually shown; both 0 when only the descriptor is shown. */
  shownStartLine: number;
  shownEndLine: number;
  /** Exact tokens of `text` for the allocation's tokenizer. */
  tokens: number;
  text: string;
  /** Shown as an outline: only the lines of `shown` are in `text` (hidden runs are `⋮` lines). */
  outline?: boolean;
  /** The line ranges shown (1-based, inclusive); set for outlines, where shown lines are not one range. */
  shown?: [number, number][];
  /** Allocated objects nested in this one, shown in its rendering instead of a block of their own. */
  contains?: { objectId: string; object: string; how: ContainmentHow }[];
}

/**
 * How a nested object is shown in its container's block: inside the container shown whole, expanded in (or only
 * listed in) its outline, or inside its window.
 */
export type ContainmentHow = 'inside whole parent' | 'expanded in parent outline' | 'listed in parent outline' | 'inside parent window' | 'outside parent window';

/** A retrieved position and the views it absorbed. */
export interface PositionTrace {
  rank: number;
  objectId: string;
  name: string;
  path: string;
  score: number;
  views: { viewId: number; kind: ViewKind; score: number; reason: string }[];
  /** The slot it won, or null when it was left out (or missing from the source). */
  role: Role | null;
  /** The evidence of its file, 0..1, when the retriever weighs files (prose queries). */
  fileScore?: number;
}

/** Why a companion slot holds what it holds. */
export interface CompanionTrace {
  /** 1-based companion slot. */
  slot: number;
  objectId: string | null;
  object: string | null;
  path: string | null;
  origin: 'retrieved' | 'fiber' | null;
  score: number | null;
  reason: 'shared-tokens' | 'fallback: next-ranked' | 'none';
  /** Query tokens the companion shares (empty for fallback and none). */
  sharedTokens: string[];
}

/** How one b_i was computed. */
export interface BudgetStep {
  /** 1-based position of the object in e_1..e_m. */
  i: number;
  objectId: string;
  /** Unclipped rendering length (descriptor + whole source) in tokens. */
  d: number;
  /** The per-object cap; null under noRender (no cap, objects are cut at the budget). */
  bObj: number | null;
  /** Budget left before e_i. */
  R: number;
  floor: number;
  m: number;
  result: number;
}

export interface BudgetTrace {
  /** `formula`: b_i = min(d_i, b_obj, [R_i - (m-i)*floor]+); `cut`: the noRender ablation. */
  mode: 'formula' | 'cut';
  budget: number;
  separatorTokens: number;
  /** Tokens reserved for the m-1 separators. */
  reserved: number;
  /** budget - reserved: what the objects share (R_1). */
  available: number;
  objectCap: number;
  /** The floor option; `floor` below is what applied (0 when available < m*floor). */
  floorOption: number;
  floor: number;
  m: number;
  steps: BudgetStep[];
}

export interface RenderTrace {
  i: number;
  objectId: string;
  object: string;
  role: Role;
  /** The allowance b_i (or, under noRender, the budget left). */
  allowance: number;
  tokens: number;
  outcome: 'whole' | 'clipped' | 'outline' | 'descriptor only' | 'empty: descriptor does not fit';
  shownStartLine: number;
  shownEndLine: number;
  /** The line the window was grown around (null when whole or empty). */
  anchorLine: number | null;
  /** Query tokens found on the anchor line. */
  anchorTokens: string[];
  /** Lines removed after joining to keep the whole text within the budget. */
  shrunkLines: number;
  /** Allocated objects nested in this one: merged into its rendering (containment), and how each is shown. */
  merged?: { objectId: string; object: string; how: ContainmentHow }[];
}

export interface JoinTrace {
  separator: string;
  separatorTokens: number;
  /** Sum of block tokens plus separators between non-empty blocks. */
  sumOfParts: number;
  /** Tokens of the final joined text. */
  joinedTokens: number;
  /** Lines removed (and blocks emptied) because joining added tokens. */
  shrunkLines: number;
}

/** The interface fill after the K slots (see `allocator/fill.ts`): the structure-found part of the fill. */
export interface InterfaceTrace {
  headLines: number;
  /** Tokens the K slots left (R_1 minus what they used). */
  leftover: number;
  /** Objects found through structure the fill listed (role `interface`). */
  added: number;
  /** Objects found through structure considered that did not fit what was left. */
  skipped: number;
  remaining: number;
}

/** The fill after the K slots: further objects in rank order, whole, as outlines or (found through structure) heads. */
export interface FillTrace {
  /** Tokens the K slots left, and what remained after the fill. */
  leftover: number;
  remaining: number;
  /** Blocks added, by form. */
  whole: number;
  outlines: number;
  heads: number;
  /** Objects merged into a block already in the context (containment), expanding it or already shown by it. */
  merged: number;
  /** Objects considered that fitted in no form. */
  skipped: number;
  /** Positions the fill stopped before (below its relevance stop, `fillRelevance`, or after the budget ran out). */
  notConsidered: number;
}

export interface AllocationTrace {
  ablations: { noQuotient: boolean; noRender: boolean; noFill?: boolean };
  queryTokens: string[];
  slots: { core: number; companion: number };
  viewsRetrieved: number;
  /** Views asked of the retriever (set by `buildContext`, see `retrievalDepth`). */
  depth?: number;
  /** Positions the views collapsed into (equals viewsRetrieved minus duplicates under noQuotient). */
  objects: number;
  positions: PositionTrace[];
  /** Object ids the retriever returned that the source does not know. */
  missing: string[];
  companions: CompanionTrace[];
  budget: BudgetTrace;
  /** Null when heads are off (`headLines` 0, or the noQuotient ablation). */
  interface: InterfaceTrace | null;
  /** Null under `noFill` (the paper's strict K slots) and the ablations. */
  fill?: FillTrace | null;
  render: RenderTrace[];
  join: JoinTrace;
}

/** The allocator's result; the CLI's `--json` prints it as is. */
export interface Allocation {
  query: string;
  budget: number;
  tokenizer: TokenizerName;
  totalTokens: number;
  text: string;
  blocks: Block[];
  trace: AllocationTrace;
  /** With a session: objects left out because the session already has them unchanged (named in `text`'s last line). */
  alreadyShown?: { path: string; name: string }[];
}
