/**
 * The TypeScript / TSX / JavaScript fact collector: one walk over the tree.
 * Value names (`identifier`, `shorthand_property_identifier`) and type names
 * (`type_identifier`) are reads; property names, labels, `this` and `super`
 * are not names. Bindings are flat, as for Python.
 */
import type { SyntaxNode as Node } from '../../indexer/types.ts';
import type { AnalyzeContext } from './analyze-python.ts';
import { addBinding, dottedText } from './facts.ts';

const FUNCTION_DECLARATIONS = new Set(['function_declaration', 'generator_function_declaration', 'function_signature']);
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASSES = new Set(['class_declaration', 'abstract_class_declaration', 'class']);
const METHODS = new Set(['method_definition', 'method_signature', 'abstract_method_signature']);

function unquote(s: string): string {
  return s.replace(/^['"`]|['"`]$/g, '');
}

export function analyzeScript(root: Node, ctx: AnalyzeContext): void {
  const { facts } = ctx;
  const lineOf = (n: Node) => n.startPosition.row + 1 - ctx.lineOffset;
  const bind = (n: Node | null) => {
    if (n) addBinding(facts, n.text, lineOf(n));
  };
  const use = (n: Node) => {
    if (!facts.uses.has(n.text)) facts.uses.set(n.text, lineOf(n));
  };
  const headText = (node: Node, body: Node | null): string => {
    const end = body && body.startIndex > node.startIndex ? body.startIndex : node.endIndex;
    return ctx.text.slice(node.startIndex, end).replace(/\s+/g, ' ').trim().replace(/;$/, '');
  };
  let functionDepth = 0;

  /** Names a declarator, parameter or `catch` binds; defaults inside patterns are reads. */
  const pattern = (n: Node | null, selfClass: string | null): void => {
    if (!n) return;
    switch (n.type) {
      case 'identifier':
      case 'shorthand_property_identifier_pattern':
        bind(n);
        return;
      case 'object_pattern':
      case 'array_pattern':
        for (const c of n.namedChildren) pattern(c, selfClass);
        return;
      case 'pair_pattern':
        pattern(n.childForFieldName('value'), selfClass);
        if (n.childForFieldName('key')?.type === 'computed_property_name') visit(n.childForFieldName('key'), null, selfClass);
        return;
      case 'rest_pattern':
        for (const c of n.namedChildren) pattern(c, selfClass);
        return;
      case 'assignment_pattern':
      case 'object_assignment_pattern':
        pattern(n.childForFieldName('left'), selfClass);
        visit(n.childForFieldName('right'), null, selfClass);
        return;
      case 'this':
      case 'comment':
        return;
      default:
        visit(n, null, selfClass);
    }
  };

  const parameters = (params: Node | null, selfClass: string | null): void => {
    for (const p of params?.namedChildren ?? []) {
      if (p.type === 'required_parameter' || p.type === 'optional_parameter') {
        pattern(p.childForFieldName('pattern'), selfClass);
        visit(p.childForFieldName('type'), null, selfClass);
        visit(p.childForFieldName('value'), null, selfClass);
        for (const d of p.namedChildren) if (d.type === 'decorator') visit(d, null, selfClass);
      } else pattern(p, selfClass); // JavaScript: bare patterns
    }
  };

  /** A function-like node's parameters, return type and body; `name` is bound by the caller. */
  const functionParts = (n: Node, selfClass: string | null): void => {
    visit(n.childForFieldName('type_parameters'), null, selfClass);
    const single = n.childForFieldName('parameter');
    if (single) pattern(single, selfClass);
    parameters(n.childForFieldName('parameters'), selfClass);
    visit(n.childForFieldName('return_type'), null, selfClass);
    functionDepth++;
    visit(n.childForFieldName('body'), null, selfClass);
    functionDepth--;
  };

  const recordCall = (n: Node, selfClass: string | null): void => {
    const isNew = n.type === 'new_expression';
    const fn = n.childForFieldName(isNew ? 'constructor' : 'function');
    const args = n.childForFieldName('arguments');
    if (!fn) return;
    let name: string;
    let qualifier: string | null = null;
    if (fn.type === 'identifier') name = fn.text;
    else if (fn.type === 'member_expression') {
      const prop = fn.childForFieldName('property');
      const object = fn.childForFieldName('object');
      if (!prop || !object || prop.type !== 'property_identifier') return;
      name = prop.text;
      qualifier = dottedText(object.text) ?? '?';
    } else return;
    // `new C` without arguments and tagged templates are not argument lists we can count.
    if (!args) {
      if (isNew) facts.calls.push({ line: lineOf(n), name, qualifier, positional: 0, keywords: [], spread: false, isNew, enclosingClass: selfClass });
      return;
    }
    if (args.type !== 'arguments') return;
    let positional = 0;
    let spread = false;
    for (const a of args.namedChildren) {
      if (a.type === 'comment') continue;
      if (a.type === 'spread_element') spread = true;
      else positional++;
    }
    facts.calls.push({ line: lineOf(n), name, qualifier, positional, keywords: [], spread, isNew, enclosingClass: selfClass });
  };

  const importStatement = (n: Node): void => {
    facts.isModule = true;
    const line = lineOf(n);
    if (functionDepth === 0) facts.topLevelImports = true;
    const source = n.childForFieldName('source');
    const base = { wildcard: false, reexport: false, isDefault: false, line };
    const requireClause = n.namedChildren.find((c) => c.type === 'import_require_clause');
    if (requireClause) {
      const local = requireClause.namedChildren.find((c) => c.type === 'identifier');
      const src = requireClause.childForFieldName('source') ?? requireClause.namedChildren.find((c) => c.type === 'string');
      if (local && src) {
        bind(local);
        // `import x = require('m')` binds module.exports, whatever that is.
        facts.imports.push({ ...base, local: local.text, module: unquote(src.text), name: 'default', isDefault: true });
      }
      return;
    }
    if (!source) return;
    const module = unquote(source.text);
    const clause = n.namedChildren.find((c) => c.type === 'import_clause');
    if (!clause) {
      facts.imports.push({ ...base, local: null, module, name: null });
      return;
    }
    for (const c of clause.namedChildren) {
      if (c.type === 'identifier') {
        bind(c);
        facts.imports.push({ ...base, local: c.text, module, name: 'default', isDefault: true });
      } else if (c.type === 'namespace_import') {
        const id = c.namedChildren.find((x) => x.type === 'identifier');
        if (id) {
          bind(id);
          facts.imports.push({ ...base, local: id.text, module, name: null });
        }
      } else if (c.type === 'named_imports') {
        for (const s of c.namedChildren) {
          if (s.type !== 'import_specifier') continue;
          const nm = s.childForFieldName('name');
          const alias = s.childForFieldName('alias');
          if (!nm) continue;
          const local = alias ?? nm;
          bind(local);
          facts.imports.push({ ...base, local: local.text, module, name: unquote(nm.text) });
        }
      }
    }
  };

  const exportStatement = (n: Node, defClass: string | null, selfClass: string | null): void => {
    facts.isModule = true;
    const source = n.childForFieldName('source');
    if (source) {
      const module = unquote(source.text);
      const base = { reexport: true, isDefault: false, line: lineOf(n) };
      const clause = n.namedChildren.find((c) => c.type === 'export_clause');
      const ns = n.namedChildren.find((c) => c.type === 'namespace_export');
      if (clause) {
        for (const s of clause.namedChildren) {
          if (s.type !== 'export_specifier') continue;
          const nm = s.childForFieldName('name');
          const alias = s.childForFieldName('alias');
          if (nm) facts.imports.push({ ...base, local: unquote((alias ?? nm).text), module, name: unquote(nm.text), wildcard: false });
        }
      } else if (ns) {
        const id = ns.namedChildren.find((c) => c.type === 'identifier');
        if (id) facts.imports.push({ ...base, local: id.text, module, name: null, wildcard: false });
      } else facts.imports.push({ ...base, local: null, module, name: null, wildcard: true });
      return;
    }
    for (const c of n.namedChildren) {
      if (c.type === 'export_clause') {
        for (const s of c.namedChildren) if (s.type === 'export_specifier') visit(s.childForFieldName('name'), null, selfClass);
      } else visit(c, defClass, selfClass);
    }
  };

  /** `const x = require('m')`, `const { a, b: c } = require('m')`: imports as well as bindings. */
  const requireImport = (declarator: Node): void => {
    const value = declarator.childForFieldName('value');
    if (value?.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require') return;
    const arg = value.childForFieldName('arguments')?.namedChildren;
    if (!arg || arg.length !== 1 || arg[0].type !== 'string') return;
    const module = unquote(arg[0].text);
    facts.isModule = true;
    const name = declarator.childForFieldName('name');
    // CommonJS binds module.exports, which need not be the module's top-level names: never followed (isDefault).
    const base = { wildcard: false, reexport: false, isDefault: true, line: lineOf(declarator) };
    if (functionDepth === 0) facts.topLevelImports = true;
    if (name?.type === 'identifier') facts.imports.push({ ...base, local: name.text, module, name: null });
    else if (name?.type === 'object_pattern') {
      for (const p of name.namedChildren) {
        if (p.type === 'shorthand_property_identifier_pattern') facts.imports.push({ ...base, local: p.text, module, name: p.text });
        else if (p.type === 'pair_pattern') {
          const key = p.childForFieldName('key');
          const val = p.childForFieldName('value');
          if (key && val?.type === 'identifier') facts.imports.push({ ...base, local: val.text, module, name: unquote(key.text) });
        }
      }
    }
  };

  const classDeclaration = (n: Node, defClass: string | null, selfClass: string | null): void => {
    const name = n.childForFieldName('name');
    bind(name);
    const heritage = n.namedChildren.find((c) => c.type === 'class_heritage');
    const bases = heritage?.namedChildren.filter((c) => c.type === 'extends_clause').map((c) => c.childForFieldName('value')?.text ?? c.text) ?? [];
    const body = n.childForFieldName('body');
    facts.defs.push({ name: name?.text ?? '', kind: 'class', signature: headText(n, body), decorators: [], className: defClass, bases, line: lineOf(name ?? n) });
    for (const c of n.namedChildren) {
      if (c === body || c.type === 'class_body') continue;
      if (c.startIndex === name?.startIndex) continue;
      visit(c, null, selfClass);
    }
    const className = name?.text ?? null;
    for (const c of body?.namedChildren ?? []) visit(c, className, className);
  };

  function visit(node: Node | null, defClass: string | null, selfClass: string | null): void {
    if (!node) return;
    const t = node.type;
    switch (t) {
      case 'identifier':
      case 'type_identifier':
      case 'shorthand_property_identifier':
        use(node);
        return;
      case 'property_identifier':
      case 'private_property_identifier':
      case 'statement_identifier':
      case 'comment':
      case 'this':
      case 'super':
      case 'predefined_type':
      case 'jsx_closing_element':
        return;
      case 'nested_type_identifier':
        visit(node.childForFieldName('module'), null, selfClass);
        return;
      case 'member_expression':
        visit(node.childForFieldName('object'), null, selfClass);
        return;
      case 'variable_declarator': {
        requireImport(node);
        const name = node.childForFieldName('name');
        pattern(name, selfClass);
        visit(node.childForFieldName('type'), null, selfClass);
        const value = node.childForFieldName('value');
        if (value && name?.type === 'identifier' && FUNCTION_VALUES.has(value.type)) {
          facts.defs.push({ name: name.text, kind: 'function', signature: headText(node, value.childForFieldName('body')), decorators: [], className: null, bases: [], line: lineOf(node) });
        }
        visit(value, null, selfClass);
        return;
      }
      case 'formal_parameters':
        // Parameter lists outside functions: function types, call and construct signatures.
        parameters(node, selfClass);
        return;
      case 'import_statement':
        importStatement(node);
        return;
      case 'export_statement':
        exportStatement(node, defClass, selfClass);
        return;
      case 'labeled_statement':
        for (const c of node.namedChildren) if (c.type !== 'statement_identifier') visit(c, defClass, selfClass);
        return;
      case 'type_parameter':
      case 'mapped_type_clause':
        bind(node.childForFieldName('name'));
        for (const c of node.namedChildren) if (c.startIndex !== node.childForFieldName('name')?.startIndex) visit(c, null, selfClass);
        return;
      case 'infer_type':
        for (const c of node.namedChildren) if (c.type === 'type_identifier') bind(c);
        return;
      case 'index_signature': {
        const nm = node.childForFieldName('name');
        if (nm?.type === 'identifier') bind(nm);
        for (const c of node.namedChildren) if (c !== nm && c.startIndex !== nm?.startIndex) visit(c, null, selfClass);
        return;
      }
      case 'interface_declaration':
      case 'type_alias_declaration':
      case 'enum_declaration':
      case 'internal_module':
      case 'module': {
        const nm = node.childForFieldName('name');
        if (nm) bind(nm.type === 'nested_identifier' ? nm.namedChildren[0] ?? nm : nm);
        for (const c of node.namedChildren) if (c.startIndex !== nm?.startIndex) visit(c, null, selfClass);
        return;
      }
      case 'import_alias':
        bind(node.namedChildren[0] ?? null);
        return;
      case 'catch_clause':
        pattern(node.childForFieldName('parameter'), selfClass);
        visit(node.childForFieldName('type'), null, selfClass);
        visit(node.childForFieldName('body'), null, selfClass);
        return;
      case 'for_in_statement':
        pattern(node.childForFieldName('left'), selfClass);
        visit(node.childForFieldName('right'), null, selfClass);
        visit(node.childForFieldName('body'), null, selfClass);
        return;
      case 'jsx_opening_element':
      case 'jsx_self_closing_element': {
        const nm = node.childForFieldName('name');
        for (const c of node.namedChildren) {
          if (nm && c.startIndex === nm.startIndex && c.type === 'identifier' && /^[a-z]/.test(c.text)) continue; // intrinsic element
          visit(c, null, selfClass);
        }
        return;
      }
      case 'call_expression':
      case 'new_expression':
        recordCall(node, selfClass);
        break;
      case 'return_statement':
        if (node.namedChildren.some((c) => c.type !== 'comment')) facts.exits.returns++;
        else facts.exits.bareReturns++;
        break;
      case 'throw_statement':
        facts.exits.raises++;
        break;
      case 'yield_expression':
        facts.exits.yields++;
        break;
      case 'public_field_definition': {
        const value = node.childForFieldName('value');
        const nm = node.childForFieldName('name');
        if (value && nm && defClass && FUNCTION_VALUES.has(value.type)) {
          facts.defs.push({ name: nm.text, kind: 'function', signature: headText(node, value.childForFieldName('body')), decorators: [], className: defClass, bases: [], line: lineOf(node) });
        }
        break;
      }
    }
    if (FUNCTION_DECLARATIONS.has(t)) {
      const name = node.childForFieldName('name');
      bind(name);
      if (name) facts.defs.push({ name: name.text, kind: 'function', signature: headText(node, node.childForFieldName('body')), decorators: [], className: defClass, bases: [], line: lineOf(node) });
      for (const d of node.namedChildren) if (d.type === 'decorator') visit(d, null, selfClass);
      functionParts(node, selfClass);
      return;
    }
    if (FUNCTION_VALUES.has(t)) {
      const name = node.childForFieldName('name');
      if (name) bind(name);
      functionParts(node, selfClass);
      return;
    }
    if (METHODS.has(t)) {
      const name = node.childForFieldName('name');
      if (name?.type === 'computed_property_name') visit(name, null, selfClass);
      else if (name && defClass) {
        const decorators = node.namedChildren.filter((d) => d.type === 'decorator').map((d) => d.text.replace(/^@\s*/, ''));
        facts.defs.push({ name: name.text, kind: 'function', signature: headText(node, node.childForFieldName('body')), decorators, className: defClass, bases: [], line: lineOf(node) });
      }
      for (const d of node.namedChildren) if (d.type === 'decorator') visit(d, null, selfClass);
      functionParts(node, selfClass);
      return;
    }
    if (CLASSES.has(t)) {
      classDeclaration(node, defClass, selfClass);
      return;
    }
    for (const c of node.namedChildren) visit(c, defClass, selfClass);
  }

  visit(root, null, null);
}
