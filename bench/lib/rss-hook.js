// Preloaded with --import by the benchmarks: writes the process's peak RSS (KiB) at exit.
import { writeFileSync } from 'node:fs'

const file = process.env.SVC_BENCH_RSS_FILE
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)))
