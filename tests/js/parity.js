// Runs the browser calculator (docs/assets/calculator.js) under Node for tests/test_parity.py.
//
//   node tests/js/parity.js REQUEST.json > ANSWER.json
//   node tests/js/parity.js < REQUESTS.jsonl > ANSWERS.jsonl   (a request per line, an answer per line)
//
// REQUEST: {"data": path of the exported tps-data.json, "task": ..., "cases": [...]}, tasks:
//   estimates  [{model, card, context, floor, ceiling, calibration}] -> [{quant, fit, need_gb, tok_s, ...}]
//   figures    [{model, context, floor, calibration}]       -> [{rows, misses, smallest, fastest}] (card ids)
//   format     [{language, units, calls: [[method, ...args]]}] -> [[text, ...]]
//   page       [{labels, state}] -> [{rows_html, tiles_html}] (labels: a page's tps-calculator JSON)
//   working    [{labels, card}] -> [worked example html] at the page's defaults
//   offload    [{model, card, context, floor, kv, ram, ram_kind}] -> [{fit, quant, tok_s, placement, command, ...}]
//   verdicts   [{model, card, context, floor, ceiling, kv, ram, ram_kind}] -> [{kind, fit, quant, count, command,
//              reason, shortfall_quant, shortfall_gb, ...}] (docs/assets/verdict.js)
//   exports    -> [[module, name], ...] every function calculator.js and verdict.js export
//   call       [{module, fn, args}] -> [what the function returns] (args may hold references: {"$card": id}, ...)
//   machines   [{model, link, context, floor, kv}] -> [{kind, quant, tok_s, tensor_split, main_gpu, command, reason,
//              need_gb, error}] (calculator.js machineVerdict on the machine of a ?machine= link)
//   search     [{query, limit}] -> [[card id, ...]] best first (the device picker's ranking)
//   answers    [{model, name, ui, options}] -> per case, per card of the data: [card, kind, fit, quant, speed, range,
//              need, shown, shortfall_gb] as the "My device" answer of a model page words it (ui: the page's
//              tps-ui labels; shown: whether the answer and the "On your …" cell print those figures)
"use strict";

const fs = require("fs");
const path = require("path");
const calc = require(path.join(__dirname, "..", "..", "docs", "assets", "calculator.js"));
const verdicts = require(path.join(__dirname, "..", "..", "docs", "assets", "verdict.js"));

let data = null;  // the exported data the request being answered names
const decided = new Map();  // verdicts of the data being read: the same in every language
const formatters = new Map();

function formatter(ui) {
  const key = ui.language + JSON.stringify(ui.units);
  if (!formatters.has(key)) formatters.set(key, new calc.Formatter(ui.language, ui.units));
  return formatters.get(key);
}
const parsed = new Map();  // each file read once: the requests of a test session share a few

function read(file) {
  const key = file + "@" + fs.statSync(file).mtimeMs;
  if (!parsed.has(key)) parsed.set(key, JSON.parse(fs.readFileSync(file, "utf8")));
  return parsed.get(key);
}

function options(c) {
  return { context: c.context, floor: c.floor, calibration: c.calibration, kvPrecision: c.kv, ceiling: c.ceiling,
           ramGb: c.ram, ramKind: c.ram_kind };
}

// A reference to the data in a "call" case's arguments: {"$card": id} is that card's record, and so on.
const REFERENCES = {
  $model: (id) => data.models[id],
  $arch: (id) => data.models[id].architecture,
  $card: (id) => data.cards.find((card) => card.id === id),
  $cards: () => data.cards,
  $settings: () => data.settings,
  $calibration: (name) => data.calibrations[name],
  $quant: (name) => calc.quant(data.settings, name),
  $ram: () => data.ram,
  $data: () => data,
  $system: ([size, kind]) => calc.ramSystem(data, { ramGb: size, ramKind: kind }),
  $memory: ([model, q, context, kv]) => calc.memoryNeeded(data.models[model], calc.quant(data.settings, q), context,
                                                          data.settings, kv),
  $candidates: ([model, context, floor, kv, ceiling]) => calc.candidateMemories(data.models[model], data.settings,
                                                                                context, floor, kv, ceiling),
};

function resolve(arg) {
  if (arg === null || typeof arg !== "object" || Array.isArray(arg)) return arg;
  const keys = Object.keys(arg);
  return keys.length === 1 && REFERENCES[keys[0]] ? REFERENCES[keys[0]](arg[keys[0]]) : arg;
}

const modules = { calculator: calc, verdict: verdicts };

const tasks = {
  // The functions each browser module exports: [module, name] pairs.
  exports: () => Object.keys(modules).flatMap((m) => Object.keys(modules[m])
    .filter((name) => typeof modules[m][name] === "function").map((name) => [m, name])),
  // One exported function called on each case's arguments (references resolved): [{module, fn, args}] -> [result].
  call: (cases) => cases.map((c) => {
    try {
      const result = modules[c.module][c.fn].apply(null, c.args.map(resolve));
      return result === undefined ? null : result;
    } catch (error) {
      return { error: String(error.message || error) };
    }
  }),
  machines: (cases) => cases.map((c) => {
    const parsed = calc.parseMachine(data, c.link);
    if (parsed.error) return { error: parsed.error };
    const v = calc.machineVerdict(data, c.model, parsed.machine, options(c));
    const e = v.estimate;
    return { kind: v.kind, quant: e ? e.quant.name : v.shortfall.quant.name, tok_s: e ? e.tok_s : null,
             tensor_split: e && e.tensor_split ? e.tensor_split : null, main_gpu: e ? (e.main_gpu || 0) : null,
             command: e ? calc.machineCommand(c.model, e, e.context, c.kv) : null, reason: v.reason || null,
             need_gb: e ? e.need_gb : v.shortfall.need_gb, link: calc.machineLink(data, parsed.machine) };
  }),
  search: (cases) => cases.map((c) => calc.searchCards(data.cards, c.query, c.limit).map((card) => card.id)),
  estimates: (cases) => cases.map((c) => {
    const e = calc.estimateOne(data, c.model, c.card, options(c));
    return { quant: e.quant ? e.quant.name : null, fit: e.fit, need_gb: e.need_gb, tok_s: e.tok_s,
             tok_s_low: e.tok_s_low, tok_s_high: e.tok_s_high, prompt_tok_s: e.prompt_tok_s,
             ttft_s: e.ttft_s,
             raised: e.raised ? { os: e.raised.limit.os, budget_gb: e.raised.limit.budget_gb,
                                  quant: e.raised.quant.name, need_gb: e.raised.need_gb } : null };
  }),
  figures: (cases) => cases.map((c) => {
    const fig = calc.modelFigures(data, c.model, options(c));
    const ids = (list) => list.map((e) => e.card.id);
    return { rows: ids(fig.rows), misses: ids(fig.misses), offload: ids(fig.offload),
             smallest: fig.smallest && fig.smallest.card.id,
             fastest: fig.fastest && fig.fastest.card.id, cards_total: fig.cards_total };
  }),
  offload: (cases) => cases.map((c) => {
    const e = calc.estimateOne(data, c.model, c.card, Object.assign(options(c), { offload: true }));
    const p = e.placement || null;
    return { fit: e.fit, quant: e.quant ? e.quant.name : null, need_gb: e.need_gb, tok_s: e.tok_s,
             tok_s_low: e.tok_s_low, tok_s_high: e.tok_s_high, ttft_s: e.ttft_s,
             mode: p && p.mode, cpu_layers: p && p.cpu_layers, ram_gb: p && p.ram_gb, gpu_gb: p && p.gpu_gb,
             command: e.quant ? calc.llamaServer(c.model, e, c.context, c.kv, 1) : null };
  }),
  card_misses: (cases) => cases.map((c) => calc.cardFigures(data, c.card, options(c)).misses.map((m) => [
    m.model, m.quant.name, m.shown_gb,
    m.raised ? [m.raised.limit.os, m.raised.estimate.quant.name, m.raised.estimate.tok_s] : null])),
  verdicts: (cases) => cases.map((c) => {
    const v = verdicts.decide(data, c.model, c.card, options(c));
    const e = v.estimate, p = e && e.placement;
    return { kind: v.kind, fit: v.fit, quant: e ? e.quant.name : null, need_gb: v.need_gb, tok_s: e && e.tok_s,
             tok_s_low: e && e.tok_s_low, tok_s_high: e && e.tok_s_high, count: v.count, command: v.command,
             mode: p ? p.mode : null, cpu_layers: p ? p.cpu_layers : null, ram_gb: p ? p.ram_gb : null,
             reason: v.reason, shortfall_quant: v.shortfall_quant, shortfall_gb: v.shortfall_gb,
             beyond_context: v.beyond_context,
             raised: v.raised ? { os: v.raised.limit.os, quant: v.raised.estimate.quant.name,
                                  tok_s: Math.round(v.raised.estimate.tok_s * 10) / 10 } : null };
  }),
  answers: (cases) => cases.map((c) => {
    const f = formatter(c.ui);
    const opts = options(c.options), view = c.model + "|" + JSON.stringify(opts);
    return data.cards.map((card) => {
      const key = view + "|" + card.id;
      if (!decided.has(key)) decided.set(key, verdicts.decide(data, c.model, card.id, opts));
      const v = decided.get(key), e = v.estimate;
      const html = verdicts.answerHtml(v, c.ui, f, c.name), cell = verdicts.cellHtml(v, c.ui, f);
      const shows = (text) => html.indexOf(calc.escapeHtml(text)) >= 0;
      if (!e) {
        return [card.id, v.kind, null, null, null, null, null,
                shows(v.shortfall_quant) && shows(f.gb(v.shortfall_gb)) && cell.indexOf(calc.escapeHtml(c.ui.fit.none)) >= 0,
                v.shortfall_gb];
      }
      const speed = f.tokS(e.tok_s), range = f.tokRange(e.tok_s_low, e.tok_s_high);
      return [card.id, v.kind, v.fit, e.quant.name, speed, range, f.gb(e.need_gb),
              shows(speed) && shows(range) && shows(e.quant.name) && cell.indexOf(calc.escapeHtml(speed)) >= 0,
              v.shortfall_gb];
    });
  }),
  format: (cases) => cases.map((c) => {
    const f = new calc.Formatter(c.language, c.units);
    return c.calls.map(([method, ...args]) => f[method](...args));
  }),
  working: (cases) => cases.map((c) => {
    const labels = c.labels;
    const f = new calc.Formatter(labels.language, labels.units);
    const e = calc.estimateOne(data, labels.model, c.card, { context: labels.defaults.context,
                                                            floor: labels.defaults.floor });
    return calc.workingHtml(data, labels, f, e);
  }),
  page: (cases) => cases.map((c) => {
    const labels = c.labels;
    const f = new calc.Formatter(labels.language, labels.units);
    const state = Object.assign({ context: labels.defaults.context, floor: labels.defaults.floor, search: "",
                                  vram: "", all: false }, c.state || {});
    const fig = calc.modelFigures(data, labels.model, { context: state.context, floor: state.floor });
    return { rows_html: calc.rowsHtml(calc.visibleRows(fig, state), f, labels),
             tiles_html: calc.tilesHtml(fig, f, labels, c.total_tile || "") };
  }),
};

function answer(request) {
  const next = request.data ? read(request.data) : null;
  if (next !== data) decided.clear();
  data = next;
  const started = process.hrtime.bigint();
  const answers = tasks[request.task](request.cases);
  return { answers: answers, elapsed_ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

if (process.argv[2]) {
  process.stdout.write(JSON.stringify(answer(JSON.parse(fs.readFileSync(process.argv[2], "utf8")))));
} else {
  require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
    let reply;
    try {
      reply = answer(JSON.parse(line));
    } catch (error) {
      reply = { error: String((error && error.stack) || error) };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
}
