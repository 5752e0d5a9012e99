/**
 * `make(key)` computed once per key object and kept as long as the key lives (a row schema, a screen
 * definition, a key list): for what is derived from definitions that never change.
 */
export function madeOnce<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (made.has(key)) return made.get(key) as V;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}
