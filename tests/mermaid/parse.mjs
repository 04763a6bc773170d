// Parse every mermaid block given on stdin (a JSON list of strings) with mermaid's own parser.
// Prints one JSON line: [{"ok": true} | {"ok": false, "error": "..."}, ...]. Tests only.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
for (const key of ['DOMParser', 'Element', 'HTMLElement', 'Node', 'navigator']) {
    if (!(key in globalThis)) {
        Object.defineProperty(globalThis, key, { value: dom.window[key], configurable: true });
    }
}

const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

let input = '';
for await (const chunk of process.stdin) {
    input += chunk;
}
const results = [];
for (const text of JSON.parse(input)) {
    try {
        const parsed = await mermaid.parse(text);
        results.push({ ok: true, type: parsed.diagramType });
    } catch (error) {
        results.push({ ok: false, error: String(error?.message ?? error) });
    }
}
process.stdout.write(JSON.stringify(results) + '\n');
