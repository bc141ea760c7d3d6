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
    // What the user chose or typed in a form and has not sent yet survives the refresh.
    const edited = [...main.querySelectorAll('form [name]')].filter((el) =>
      el.tagName === 'SELECT' ? [...el.options].some((o) => o.selected !== o.defaultSelected) : 'defaultValue' in el && el.value !== el.defaultValue,
    ).map((el) => [el.name, el.value])
    main.innerHTML = html
    for (const [name, value] of edited) {
      const el = main.querySelector('form [name="' + CSS.escape(name) + '"]')
      if (el) el.value = value
    }
    if (focused) document.getElementById(focused)?.focus()
  }
  if (live && 'EventSource' in window) {
    const events = new EventSource('/panel/events')
    events.addEventListener('change', () => {
      if (!timer) timer = setTimeout(refresh, 120)
    })
    // The connection, labelled as such: "live" alone beside "Switch to live" read as the environment.
    events.addEventListener('open', () => status && (status.textContent = 'updates: live'))
    events.addEventListener('error', () => status && (status.textContent = 'updates: paused (reconnecting…)'))
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
header strong{margin-right:1rem}nav{display:flex;flex-wrap:wrap;gap:.1rem .8rem;min-width:0}nav a{color:var(--accent)}nav a[aria-current=page]{font-weight:700;text-decoration:none}
.updates{margin-left:auto;font-size:.85rem}.nowrap,.date{white-space:nowrap}.id{overflow-wrap:anywhere}
.table-wrap{overflow-x:auto;max-width:100%}h1{overflow-wrap:anywhere}dd{min-width:0;overflow-wrap:anywhere}input{max-width:100%}
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
form.filter{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:end}form.filter label{margin:0}
@media (max-width:820px){.opt{display:none}main{padding:.8rem .6rem}th,td{padding:.3rem .35rem}}
@media (max-width:480px){body{font-size:14px}.date{white-space:normal}td.id{font-size:.75rem}header{padding:.5rem .6rem}dl{grid-template-columns:1fr}dt{margin-top:.3rem}img.qr{width:180px;height:180px}}
`

/** The tab's icon (/favicon.ico, and linked from every page): a small SVG, the sandbox's yellow. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#ffe08a"/><path d="M4 11.5c1 .9 2.2 1.3 3.6 1.3 2 0 3.4-1 3.4-2.6 0-1.5-1.1-2.1-2.9-2.5-1.3-.3-1.8-.6-1.8-1.2 0-.6.6-1 1.5-1 .9 0 1.7.3 2.4.9l1-1.4c-.9-.8-2-1.2-3.4-1.2-1.9 0-3.3 1.1-3.3 2.6 0 1.6 1.1 2.2 2.9 2.6 1.3.3 1.8.6 1.8 1.2 0 .6-.6 1.1-1.6 1.1-1.1 0-2-.4-2.8-1.1z" fill="#3d2e00"/></svg>`
