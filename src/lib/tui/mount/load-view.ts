/**
 * Loads a live view's module (Ink, React, Yoga and the components). React and its reconciler pick
 * their development build (twice the code, extra checks on every render) unless NODE_ENV says
 * production: the development build doubles the work of the first frame. A NODE_ENV the user set
 * is left alone here; the bundle carries the production build alone, and takes Ink's throttle
 * without the es-toolkit/compat barrel (packaging/patches.js).
 */

/** `load` is the view's `import()`; call this before anything else imports Ink. */
export function loadView<T>(load: () => Promise<T>): Promise<T> {
  process.env.NODE_ENV ??= 'production'
  return load()
}
