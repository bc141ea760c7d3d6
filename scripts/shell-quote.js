// Quotes command-line arguments for a POSIX shell (bash, zsh, sh), so a line the demo echoes can
// be pasted as is: `--description 'Demo order'`, not `--description Demo order`.
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/

/** One argument, quoted only when the shell would split or expand it. */
export function shellQuote(arg) {
  if (arg !== '' && SAFE.test(arg)) return arg
  return `'${arg.replaceAll("'", `'\\''`)}'`
}

/** A command line: each argument quoted as needed, joined by spaces. */
export function shellLine(args) {
  return args.map(shellQuote).join(' ')
}
