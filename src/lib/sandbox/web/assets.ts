/**
 * The panel's only static files, kept as strings so they travel inside the package, the bundle
 * and the single executable alike (no CDN, no file to find at run time). Served from
 * /panel/assets/ under a Content-Security-Policy that allows nothing else.
 */

/** Live updates: the server pushes `change` over Server-Sent Events; a live page re-fetches its <main>. */
export const PANEL_JS = `'use strict'
;(() => {
  const main = document.querySelector('main')
  const live = main && main.hasAttribute('data-live')
  const status = document.getElementById('live-status')
  let timer = 0
  async function refresh() {
    timer = 0
    const res = await fetch(location.href, { headers: { 'x-panel-fragment': '1' }, credentials: 'same-origin' })
    if (!res.ok) return
    const html = await res.text()
    const focused = document.activeElement && document.activeElement.id
    main.innerHTML = html
    if (focused) document.getElementById(focused)?.focus()
  }
  if (live && 'EventSource' in window) {
    const events = new EventSource('/panel/events')
    events.addEventListener('change', () => {
      if (!timer) timer = setTimeout(refresh, 120)
    })
    events.addEventListener('open', () => status && (status.textContent = 'live'))
    events.addEventListener('error', () => status && (status.textContent = 'reconnecting…'))
  }
  document.addEventListener('click', (e) => {
    const button = e.target.closest('[data-copy]')
    if (!button) return
    const source = document.getElementById(button.getAttribute('data-copy'))
    if (source && navigator.clipboard) navigator.clipboard.writeText(source.textContent.trim()).then(() => (button.textContent = 'Copied'))
  })
})()
`

export const PANEL_CSS = `:root{color-scheme:light dark;--bg:#fff;--fg:#1a1a1a;--dim:#555;--line:#d0d0d0;--accent:#0b57d0;--ok:#146c2e;--warn:#8a5300;--bad:#b3261e;--chip:#eef2f7}
@media (prefers-color-scheme:dark){:root{--bg:#141414;--fg:#ececec;--dim:#b0b0b0;--line:#3a3a3a;--accent:#8ab4f8;--ok:#7fd18b;--warn:#f0b35a;--bad:#f28b82;--chip:#24292f}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
header strong{margin-right:1rem}nav a{margin-right:.8rem;color:var(--accent)}nav a[aria-current=page]{font-weight:700;text-decoration:none}
.env{display:inline-block;padding:0 .4rem;border-radius:3px;font-weight:700;font-size:.8rem}.env.test{background:#ffe08a;color:#3d2e00}.env.live{background:#b3261e;color:#fff}
main{padding:1rem;max-width:72rem}h1{font-size:1.3rem;margin:.2rem 0 1rem}h2{font-size:1.05rem;margin:1.4rem 0 .5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--dim);font-weight:600}
.mono,code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}pre{white-space:pre-wrap;word-break:break-all;background:var(--chip);padding:.5rem;border-radius:4px;max-height:20rem;overflow:auto}
.status{font-weight:600}.s-ok{color:var(--ok)}.s-warn{color:var(--warn)}.s-bad{color:var(--bad)}.s-dim{color:var(--dim)}
form.inline{display:inline}button,input,select,textarea{font:inherit;color:inherit}button{background:var(--accent);color:var(--bg);border:0;border-radius:4px;padding:.3rem .7rem;cursor:pointer}
button.secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}input,select,textarea{background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:.3rem .4rem}
textarea{width:100%;min-height:6rem}label{display:block;margin:.5rem 0 .2rem;font-weight:600}.row{display:flex;gap:1rem;flex-wrap:wrap;align-items:flex-start}
.card{border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;margin:.6rem 0}.notice{border-left:4px solid var(--accent);padding:.4rem .8rem;background:var(--chip)}.notice.bad{border-color:var(--bad)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.4rem 0}dt{color:var(--dim)}dd{margin:0}img.qr{width:220px;height:220px;image-rendering:pixelated;background:#fff}
a:focus,button:focus,input:focus,select:focus,textarea:focus{outline:2px solid var(--accent);outline-offset:2px}.muted{color:var(--dim)}
`
