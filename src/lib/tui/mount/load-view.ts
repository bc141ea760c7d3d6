/**
 * Loads a live view's module (Ink, React, Yoga and the components). React and its reconciler pick
 * their development build (twice the code, extra checks on every render) unless NODE_ENV says
 * production: the development build doubles the work of the first frame. A NODE_ENV the user set
 * is left alone here. This matters unbundled (dist/, the tests): the bundle is built with NODE_ENV
 * defined as production (packaging/build-bundle.js), so it carries the production build alone.
 */

/** `load` is the view's `import()`; call this before anything else imports Ink. */
export function loadView<T>(load: () => Promise<T>): Promise<T> {
  // Through a variable: the bundle's `define` replaces the expression `process.env.NODE_ENV`.
  const env = process.env
  env.NODE_ENV ??= 'production'
  return load()
}
