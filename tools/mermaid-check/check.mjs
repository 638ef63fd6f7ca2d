// Parses Mermaid charts with Mermaid's own parser, under Node with jsdom
// standing in for the browser: make mermaid-check runs it on the golden
// charts. The tests check the same texts against Mermaid's grammar without
// Node (internal/mermaid); this is the cross-check with the real thing.
// Exit 1 if a chart does not parse, or if the negative control does.
import { JSDOM } from 'jsdom';
import fs from 'fs';
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window; globalThis.document = dom.window.document;
try { globalThis.navigator = dom.window.navigator; } catch (e) {}
globalThis.DOMParser = dom.window.DOMParser;
const mermaid = (await import('mermaid')).default;
mermaid.initialize({ startOnLoad: false });
let bad = 0;
for (const f of process.argv.slice(2)) {
  let text = fs.readFileSync(f, 'utf8');
  const m = text.match(/```mermaid\n([\s\S]*?)```/); if (m) text = m[1];
  try { await mermaid.parse(text); console.log('ok', f); }
  catch (e) { bad++; console.log('FAIL', f, String(e.message || e).split('\n').slice(0,3).join(' | ')); }
}
// A message without text must be refused, or the check proves nothing.
try { await mermaid.parse('sequenceDiagram\n  p0->>p1\n'); console.log('negative control PARSED'); bad++; } catch (e) { console.log('negative control rejected: ok'); }
process.exit(bad ? 1 : 0);
