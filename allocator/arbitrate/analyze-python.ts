/**
 * The Python fact collector: one walk over a tree-sitter-python tree.
 * Bindings are flat (every name bound anywhere in the program counts as
 * bound), which can only make the names witness more lenient, never invent a
 * suspicious name.
 */
import type { SyntaxNode as Node } from '../../indexer/types.ts';
import { addBinding, dottedText, type ProgramFacts } from './facts.ts';

export interface AnalyzeContext {
  facts: ProgramFacts;
  /** The analysed text (tree-sitter indices point into it). */
  text: string;
  /** Lines of the analysed text before the candidate's first line (a wrapper). */
  lineOffset: number;
  /** Start bytes of docstring statements, left out of the size. */
  docstrings: Set<number>;
}

const TARGET_LISTS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'parenthesized_expression', 'list_splat_pattern', 'list_splat', 'as_pattern_target', 'expression_list']);

export function analyzePython(root: Node, ctx: AnalyzeContext): void {
  const { facts } = ctx;
  const lineOf = (n: Node) => n.startPosition.row + 1 - ctx.lineOffset;
  const bind = (n: Node | null) => {
    if (n) addBinding(facts, n.text, lineOf(n));
  };
  const use = (n: Node) => {
    if (!facts.uses.has(n.text)) facts.uses.set(n.text, lineOf(n));
  };
  let functionDepth = 0;

  const markDocstring = (body: Node | null) => {
    const first = body?.namedChildren[0];
    if (first?.type === 'expression_statement' && first.namedChildren.length === 1 && first.namedChildren[0].type === 'string') {
      ctx.docstrings.add(first.startIndex);
    }
  };

  /** Names an assignment, `for`, `with ... as` or `except ... as` binds; attribute and subscript targets are reads. */
  const target = (n: Node | null, selfClass: string | null): void => {
    if (!n) return;
    if (n.type === 'identifier') bind(n);
    else if (TARGET_LISTS.has(n.type)) for (const c of n.namedChildren) target(c, selfClass);
    else visit(n, null, selfClass);
  };

  const param = (p: Node, selfClass: string | null): void => {
    switch (p.type) {
      case 'identifier':
        bind(p);
        return;
      case 'typed_parameter': {
        const inner = p.namedChildren.find((c) => c.type !== 'type' && c.type !== 'comment');
        if (inner) param(inner, selfClass);
        visit(p.childForFieldName('type'), null, selfClass);
        return;
      }
      case 'default_parameter':
      case 'typed_default_parameter':
        target(p.childForFieldName('name'), selfClass);
        visit(p.childForFieldName('type'), null, selfClass);
        visit(p.childForFieldName('value'), null, selfClass);
        return;
      case 'list_splat_pattern':
      case 'dictionary_splat_pattern':
        for (const c of p.namedChildren) if (c.type === 'identifier') bind(c);
        return;
      case 'tuple_pattern':
        target(p, selfClass);
        return;
      default:
        return; // keyword_separator, positional_separator, comments
    }
  };

  const headText = (node: Node, body: Node | null): string => {
    const end = body && body.startIndex > node.startIndex ? body.startIndex : node.endIndex;
    return ctx.text.slice(node.startIndex, end).replace(/\s+/g, ' ').trim();
  };

  const definition = (node: Node, defClass: string | null, selfClass: string | null, decorators: string[]): void => {
    const name = node.childForFieldName('name');
    const body = node.childForFieldName('body');
    bind(name);
    if (node.type === 'class_definition') {
      const supers = node.childForFieldName('superclasses');
      facts.defs.push({
        name: name?.text ?? '', kind: 'class', signature: headText(node, body), decorators, className: defClass,
        bases: supers ? supers.namedChildren.filter((c) => c.type !== 'keyword_argument' && c.type !== 'comment').map((c) => c.text) : [],
        line: lineOf(node),
      });
      visit(supers, null, selfClass);
      visit(node.childForFieldName('type_parameters'), null, selfClass);
      markDocstring(body);
      const className = name?.text ?? null;
      for (const c of body?.namedChildren ?? []) visit(c, className, className);
      return;
    }
    facts.defs.push({ name: name?.text ?? '', kind: 'function', signature: headText(node, body), decorators, className: defClass, bases: [], line: lineOf(node) });
    const params = node.childForFieldName('parameters');
    for (const p of params?.namedChildren ?? []) param(p, selfClass);
    visit(node.childForFieldName('type_parameters'), null, selfClass);
    visit(node.childForFieldName('return_type'), null, selfClass);
    markDocstring(body);
    functionDepth++;
    // Calls through `self` inside a method (and its nested functions) are calls on the method's class.
    visit(body, null, defClass ?? selfClass);
    functionDepth--;
  };

  const recordCall = (n: Node, selfClass: string | null): void => {
    const fn = n.childForFieldName('function');
    const args = n.childForFieldName('arguments');
    if (!fn || !args) return;
    let name: string;
    let qualifier: string | null = null;
    if (fn.type === 'identifier') name = fn.text;
    else if (fn.type === 'attribute') {
      const attr = fn.childForFieldName('attribute');
      const object = fn.childForFieldName('object');
      if (!attr || !object) return;
      name = attr.text;
      qualifier = dottedText(object.text) ?? '?';
    } else return;
    let positional = 0;
    let spread = false;
    const keywords: string[] = [];
    if (args.type === 'generator_expression') positional = 1;
    else {
      for (const a of args.namedChildren) {
        if (a.type === 'comment' || a.type === 'line_continuation') continue;
        if (a.type === 'keyword_argument') keywords.push(a.childForFieldName('name')?.text ?? '');
        else if (a.type === 'list_splat' || a.type === 'dictionary_splat') spread = true;
        else positional++;
      }
    }
    facts.calls.push({ line: lineOf(n), name, qualifier, positional, keywords, spread, isNew: false, enclosingClass: selfClass });
  };

  const importStatement = (n: Node): void => {
    const line = lineOf(n);
    if (functionDepth === 0) facts.topLevelImports = true;
    if (n.type === 'import_statement') {
      for (const c of n.childrenForFieldName('name')) {
        if (c.type === 'dotted_name') {
          const local = c.namedChildren[0]?.text ?? c.text;
          addBinding(facts, local, line);
          facts.imports.push({ local, module: c.text, name: null, wildcard: false, reexport: false, isDefault: false, line });
        } else if (c.type === 'aliased_import') {
          const alias = c.childForFieldName('alias')?.text;
          const mod = c.childForFieldName('name')?.text;
          if (!alias || !mod) continue;
          addBinding(facts, alias, line);
          facts.imports.push({ local: alias, module: mod, name: null, wildcard: false, reexport: false, isDefault: false, line });
        }
      }
      return;
    }
    const module = n.childForFieldName('module_name')?.text.replace(/\s+/g, '');
    if (!module) return;
    if (n.namedChildren.some((c) => c.type === 'wildcard_import')) {
      facts.imports.push({ local: null, module, name: null, wildcard: true, reexport: false, isDefault: false, line });
      return;
    }
    for (const c of n.childrenForFieldName('name')) {
      const nameNode = c.type === 'aliased_import' ? c.childForFieldName('name') : c;
      const alias = c.type === 'aliased_import' ? c.childForFieldName('alias')?.text : undefined;
      if (!nameNode) continue;
      const local = alias ?? nameNode.text;
      addBinding(facts, local, line);
      facts.imports.push({ local, module, name: nameNode.text, wildcard: false, reexport: false, isDefault: false, line });
    }
  };

  /** defClass: the class whose body holds `node` directly; selfClass: the class `self` calls go to. */
  function visit(node: Node | null, defClass: string | null, selfClass: string | null): void {
    if (!node) return;
    switch (node.type) {
      case 'identifier':
        use(node);
        return;
      case 'comment':
        return;
      case 'decorated_definition': {
        const decorators: string[] = [];
        for (const d of node.namedChildren) {
          if (d.type !== 'decorator') continue;
          decorators.push(d.text.replace(/^@\s*/, '').replace(/\s+/g, ' '));
          visit(d, null, selfClass);
        }
        const def = node.childForFieldName('definition');
        if (def) definition(def, defClass, selfClass, decorators);
        return;
      }
      case 'function_definition':
      case 'class_definition':
        definition(node, defClass, selfClass, []);
        return;
      case 'lambda':
        for (const p of node.childForFieldName('parameters')?.namedChildren ?? []) param(p, selfClass);
        visit(node.childForFieldName('body'), null, selfClass);
        return;
      case 'assignment':
      case 'augmented_assignment':
        target(node.childForFieldName('left'), selfClass);
        visit(node.childForFieldName('type'), null, selfClass);
        visit(node.childForFieldName('right'), null, selfClass);
        return;
      case 'for_statement':
      case 'for_in_clause':
        target(node.childForFieldName('left'), selfClass);
        for (const c of node.namedChildren) if (c.startIndex !== node.childForFieldName('left')?.startIndex) visit(c, null, selfClass);
        return;
      case 'as_pattern':
        for (let i = 0; i < node.childCount; i++) {
          const c = node.child(i)!;
          if (!c.isNamed) continue;
          if (node.fieldNameForChild(i) === 'alias') target(c, selfClass);
          else visit(c, null, selfClass);
        }
        return;
      case 'named_expression':
        bind(node.childForFieldName('name'));
        visit(node.childForFieldName('value'), null, selfClass);
        return;
      case 'global_statement':
      case 'nonlocal_statement':
        for (const c of node.namedChildren) if (c.type === 'identifier') bind(c);
        return;
      case 'case_pattern':
      case 'type_parameter':
        // Capture patterns and type parameters bind their names (leniently: dotted values too).
        for (const id of node.descendantsOfType('identifier')) if (id) bind(id);
        return;
      case 'import_statement':
      case 'import_from_statement':
        importStatement(node);
        return;
      case 'future_import_statement':
        return;
      case 'attribute':
        visit(node.childForFieldName('object'), null, selfClass);
        return;
      case 'keyword_argument':
        visit(node.childForFieldName('value'), null, selfClass);
        return;
      case 'call':
        recordCall(node, selfClass);
        break;
      case 'return_statement':
        if (node.namedChildren.some((c) => c.type !== 'comment')) facts.exits.returns++;
        else facts.exits.bareReturns++;
        break;
      case 'raise_statement':
        facts.exits.raises++;
        break;
      case 'yield':
        facts.exits.yields++;
        break;
      case 'module':
        markDocstring(node);
        break;
    }
    for (const c of node.namedChildren) visit(c, defClass, selfClass);
  }

  visit(root, null, null);
}
