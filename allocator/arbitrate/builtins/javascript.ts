/**
 * Names a TypeScript or JavaScript module sees without binding them.
 * Values: the ECMAScript globals, Node.js globals (Node 20: `Object.getOwnPropertyNames(globalThis)` without the
 * REPL-only core-module names), the CommonJS wrapper's names, common browser globals, and `arguments`.
 * Types: TypeScript's utility types and the lib interfaces a program names most (ES, DOM basics, Node's `NodeJS`).
 */
export const JS_GLOBAL_VALUES: ReadonlySet<string> = new Set([
  // ECMAScript
  'AggregateError', 'Array', 'ArrayBuffer', 'Atomics', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView',
  'Date', 'Error', 'EvalError', 'FinalizationRegistry', 'Float32Array', 'Float64Array', 'Function', 'Infinity',
  'Int16Array', 'Int32Array', 'Int8Array', 'Intl', 'Iterator', 'JSON', 'Map', 'Math', 'NaN', 'Number', 'Object', 'Promise',
  'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'SharedArrayBuffer', 'String', 'Symbol',
  'SyntaxError', 'TypeError', 'URIError', 'Uint16Array', 'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap',
  'WeakRef', 'WeakSet', 'WebAssembly', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape',
  'eval', 'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'undefined', 'unescape', 'arguments',
  // Node.js
  'AbortController', 'AbortSignal', 'Blob', 'BroadcastChannel', 'Buffer', 'ByteLengthQueuingStrategy', 'CompressionStream',
  'CountQueuingStrategy', 'Crypto', 'CryptoKey', 'CustomEvent', 'DOMException', 'DecompressionStream', 'Event',
  'EventTarget', 'File', 'FormData', 'Headers', 'MessageChannel', 'MessageEvent', 'MessagePort', 'Performance',
  'PerformanceEntry', 'PerformanceMark', 'PerformanceMeasure', 'PerformanceObserver', 'PerformanceObserverEntryList',
  'PerformanceResourceTiming', 'ReadableByteStreamController', 'ReadableStream', 'ReadableStreamBYOBReader',
  'ReadableStreamBYOBRequest', 'ReadableStreamDefaultController', 'ReadableStreamDefaultReader', 'Request', 'Response',
  'SubtleCrypto', 'TextDecoder', 'TextDecoderStream', 'TextEncoder', 'TextEncoderStream', 'TransformStream',
  'TransformStreamDefaultController', 'URL', 'URLSearchParams', 'WritableStream', 'WritableStreamDefaultController',
  'WritableStreamDefaultWriter', 'WebSocket', 'Navigator', 'navigator', 'atob', 'btoa', 'clearImmediate', 'clearInterval',
  'clearTimeout', 'console', 'crypto', 'fetch', 'global', 'performance', 'process', 'queueMicrotask', 'setImmediate',
  'setInterval', 'setTimeout', 'structuredClone',
  // CommonJS module wrapper
  '__dirname', '__filename', 'exports', 'module', 'require',
  // browsers
  'window', 'document', 'self', 'location', 'history', 'localStorage', 'sessionStorage', 'alert', 'confirm', 'prompt',
  'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback', 'getComputedStyle',
  'matchMedia', 'XMLHttpRequest', 'Worker', 'SharedWorker', 'Image', 'Audio', 'Option', 'Node', 'Element',
  'HTMLElement', 'HTMLInputElement', 'HTMLDivElement', 'HTMLCanvasElement', 'HTMLImageElement', 'HTMLAnchorElement',
  'HTMLButtonElement', 'HTMLFormElement', 'HTMLSelectElement', 'HTMLTextAreaElement', 'SVGElement', 'Document',
  'DocumentFragment', 'Text', 'Comment', 'Range', 'Selection', 'MutationObserver', 'IntersectionObserver',
  'ResizeObserver', 'KeyboardEvent', 'MouseEvent', 'PointerEvent', 'TouchEvent', 'FocusEvent', 'InputEvent', 'UIEvent',
  'WheelEvent', 'DragEvent', 'ErrorEvent', 'ProgressEvent', 'CloseEvent', 'FileReader', 'FileList', 'DOMParser',
  'XMLSerializer', 'CSS', 'CanvasRenderingContext2D', 'ImageData', 'IDBFactory', 'indexedDB', 'caches', 'screen',
  'devicePixelRatio', 'innerWidth', 'innerHeight', 'scrollX', 'scrollY', 'origin', 'name', 'open', 'close', 'postMessage',
  'addEventListener', 'removeEventListener', 'dispatchEvent', 'customElements', 'ShadowRoot', 'Notification',
]);

export const TS_GLOBAL_TYPES: ReadonlySet<string> = new Set([
  // utility types
  'Partial', 'Required', 'Readonly', 'Record', 'Pick', 'Omit', 'Exclude', 'Extract', 'NonNullable', 'Parameters',
  'ConstructorParameters', 'ReturnType', 'InstanceType', 'ThisParameterType', 'OmitThisParameter', 'ThisType',
  'Uppercase', 'Lowercase', 'Capitalize', 'Uncapitalize', 'Awaited', 'NoInfer',
  // ES lib interfaces
  'PromiseLike', 'ArrayLike', 'ReadonlyArray', 'ReadonlyMap', 'ReadonlySet', 'Iterable', 'IterableIterator',
  'AsyncIterable', 'AsyncIterableIterator', 'AsyncIterator', 'AsyncGenerator', 'AsyncGeneratorFunction', 'Generator',
  'GeneratorFunction', 'IteratorResult', 'IteratorYieldResult', 'IteratorReturnResult', 'PropertyKey',
  'PropertyDescriptor', 'PropertyDescriptorMap', 'TypedPropertyDescriptor', 'ClassDecorator', 'MethodDecorator',
  'PropertyDecorator', 'ParameterDecorator', 'TemplateStringsArray', 'ArrayBufferLike', 'ArrayBufferView',
  'CallableFunction', 'NewableFunction', 'IArguments', 'RegExpMatchArray', 'RegExpExecArray', 'TypedArray',
  'WeakKey', 'Disposable', 'AsyncDisposable', 'ErrorOptions', 'PromiseSettledResult', 'PromiseFulfilledResult',
  'PromiseRejectedResult', 'PromiseConstructor', 'ObjectConstructor', 'ArrayConstructor', 'StringConstructor',
  'NumberConstructor', 'DateConstructor', 'ErrorConstructor', 'RegExpConstructor', 'MapConstructor', 'SetConstructor',
  'SymbolConstructor', 'FunctionConstructor', 'BooleanConstructor',
  // DOM and Node
  'NodeJS', 'NodeList', 'NodeListOf', 'HTMLCollection', 'HTMLCollectionOf', 'EventListener', 'EventListenerOrEventListenerObject',
  'AddEventListenerOptions', 'EventInit', 'RequestInit', 'ResponseInit', 'HeadersInit', 'BodyInit', 'RequestInfo',
  'BufferEncoding', 'BufferSource', 'Transferable', 'StructuredSerializeOptions', 'TimerHandler', 'FrameRequestCallback',
  'CSSStyleDeclaration', 'DOMRect', 'DOMRectReadOnly', 'ElementCreationOptions', 'ScrollToOptions', 'Storage',
  'HTMLElementTagNameMap', 'JSX', 'React',
]);
