/**
 * Freezes everything reachable from `root`: objects, arrays, functions, and Maps and Sets (whose
 * writing methods then throw, since Object.freeze does not stop them). A decision that writes to a
 * frozen bundle throws in strict mode, so deciding on one proves the bundle is only read.
 */
export function deepFreeze<T>(root: T): T {
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    if (value instanceof Map) {
      for (const [k, v] of value) {
        visit(k);
        visit(v);
      }
      lock(value, ['set', 'delete', 'clear']);
    } else if (value instanceof Set) {
      for (const v of value) visit(v);
      lock(value, ['add', 'delete', 'clear']);
    }
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) visit(descriptor.value);
    }
    Object.freeze(value);
  };
  visit(root);
  return root;
}

function lock(collection: object, methods: string[]): void {
  for (const method of methods) {
    Object.defineProperty(collection, method, {
      value: () => {
        throw new TypeError(`${method}() on a frozen ${collection.constructor.name}: the bundle was written to`);
      },
    });
  }
}
