// The verdict on one model for one device at a view's settings, and the words the "My device"
// answer and the "On your …" column give it. The figures come from the calculator's estimator
// (docs/assets/calculator.js: estimate, offloadCandidates and offloadEstimate, the code
// modelFigures draws the table with), so the answer says what that device's row says:
//
//   fits     runs on the device alone (fit: comfortable or tight)
//   offload  runs with part of it in system RAM (--n-cpu-moe or -ngl)
//   multi    not on one, but on a set of N identical graphics cards (--tensor-split)
//   none     does not run: one reason, and the shortfall at the quant the table judges it at
//            (the model's own format where it ships in one, else the quality floor)
//
// Pure: loads in Node for tests/test_parity.py and tests/test_answer_matches_table.py.
(function (root) {
  "use strict";

  var calc = typeof module !== "undefined" && module.exports ? require("./calculator.js") : root.tpsCalculator;
  if (!calc) return;
  var escapeHtml = calc.escapeHtml, fillPhrase = calc.fillPhrase;
  // Per data file: its cards by id, and the quants a model may get at a view's settings with the
  // memory each needs (the same for every device: a page asks for hundreds of devices at once).
  var memo = new WeakMap();

  function memoOf(data) {
    var m = memo.get(data);
    if (!m) {
      m = { cards: {}, candidates: {} };
      data.cards.forEach(function (card) { m.cards[card.id] = card; });
      memo.set(data, m);
    }
    return m;
  }

  function remembered(data, key, work) {
    var store = memoOf(data).candidates;
    if (!Object.prototype.hasOwnProperty.call(store, key)) {
      if (Object.keys(store).length > 4096) memoOf(data).candidates = store = {};
      store[key] = work();
    }
    return store[key];
  }

  // Only graphics cards split a model between them: machines and chips that share their memory
  // would need one computer per share (llama.cpp's RPC), which no --tensor-split line gives.
  function splits(card) {
    return card.kind === "discrete" && !card.unified;
  }

  // The smallest set of this card (data/estimator.yaml multi_gpu_counts) that holds it, as one card
  // with that many times the memory (tps_atlas/estimate/verdict.py multi_card), or null.
  function multiEstimate(data, model, card, calibration, candidates, context) {
    if (!splits(card)) return null;
    var counts = data.settings.multi_gpu_counts || [];
    for (var i = 0; i < counts.length; i++) {
      var e = calc.estimate(model, calc.pooledCard(card, counts[i], data.settings), data.settings, calibration, candidates, context);
      if (e.fit !== "none") return { count: counts[i], estimate: e };
    }
    return null;
  }

  // ``options``: context, floor, ceiling, kvPrecision, ramGb, ramKind, calibration (as estimateOne).
  // The device alone, else with part in RAM: estimateOne's steps, the table's code (modelFigures).
  function decide(data, modelId, cardId, options) {
    options = options || {};
    var settings = data.settings, model = data.models[modelId], card = memoOf(data).cards[cardId];
    if (!model || !card) throw new Error("unknown model or card: " + modelId + ", " + cardId);
    var calibration = data.calibrations[options.calibration || data.calibration];
    var context = options.context || settings.context_tokens;
    var floor = calc.quant(settings, options.floor || settings.min_quality).name;
    var kv = options.kvPrecision || "";
    var key = [modelId, context, floor, kv, options.ceiling || ""].join("|");
    var candidates = remembered(data, "fit|" + key, function () {
      return calc.candidateMemories(model, settings, context, floor, options.kvPrecision, options.ceiling);
    });
    var limit = model.architecture && model.architecture.max_context || null;
    var v = { model: modelId, card: card, context: context, kv: kv, max_context: limit,
              beyond_context: !!limit && context > limit, kind: "none", fit: null, estimate: null, count: 1,
              command: null, reason: null, shortfall_quant: null, need_gb: null, shortfall_gb: null,
              usable_gb: null, single_need_gb: null, ram_size_gb: null, ram_free_gb: null, raised: null };
    var system = calc.ramSystem(data, options);
    var e = calc.estimate(model, card, settings, calibration, candidates, context), alone = e;
    if (e.fit === "none") {
      var offloadMemories = remembered(data, "offload|" + key, function () {
        return calc.offloadCandidates(model, settings, data.ram, context, floor, options.kvPrecision);
      });
      e = calc.offloadEstimate(model, card, settings, calibration, system, data.ram,
                               offloadMemories, context) || e;
    }
    if (e.quant) {
      v.kind = e.fit === "offload" ? "offload" : "fits";
      v.fit = e.fit === "offload" ? null : e.fit;
      v.estimate = e;
      v.need_gb = e.need_gb;
      v.command = calc.llamaServer(modelId, e, context, kv, 1);
      return v;
    }
    var multi = multiEstimate(data, model, card, calibration, candidates, context);
    if (multi) {
      v.kind = "multi";
      v.count = multi.count;
      v.estimate = multi.estimate;
      v.need_gb = multi.estimate.need_gb;
      v.command = calc.llamaServer(modelId, multi.estimate, context, kv, multi.count);
    }
    // How far short one device falls, at the quant every place quotes.
    var short = calc.shortfallOf(model, card, settings, calibration, context, floor, options.kvPrecision,
                                 options.ceiling);
    var need = short.need_gb, usable = short.usable_gb;
    v.shortfall_quant = short.quant.name;
    v.usable_gb = usable;
    v.shortfall_gb = short.shown_gb;
    if (v.kind === "none") v.need_gb = need;
    v.single_need_gb = need;
    // The one reason it does not run on this device by itself.
    var free = Math.max(0, calc.ramRoomGb(system, settings, data.ram, calibration));
    // The names of tps_atlas/estimate/verdict.py Reason.
    if (card.unified || card.kind !== "discrete") v.reason = "no_system_ram";
    else if (need > usable + free) v.reason = "memory";
    else if (!model.architecture) v.reason = "no_layout";
    else v.reason = "placement";
    v.ram_size_gb = system.size_gb;
    v.ram_free_gb = free;
    if (v.kind === "none") v.raised = calc.raisedRun(model, card, settings, calibration, candidates, context, alone.raised);
    return v;
  }

  // ---------------------------------------------------------------- words (tps_atlas/web/ui.py labels)

  // A phrase worded for the device's kind (a graphics card, or a machine or chip).
  function forKind(phrases, card) {
    return phrases[card.kind] || phrases.discrete;
  }

  function paragraph(className, html) {
    return '<p class="' + className + '">' + html + "</p>";
  }

  function commandHtml(ui, command) {
    return paragraph("tps-answer-run", escapeHtml(ui.answer_run)) +
      '<pre><code class="tps-command">' + escapeHtml(command) + "</code></pre>";
  }

  // The answer of a model page for one device: a few sentences, every value escaped.
  function answerHtml(v, ui, f, modelName) {
    var card = v.card, e = v.estimate;
    var values = { device: card.name, model: modelName, vram: f.vram(card.vram_gb) };
    if (e) {
      values.quant = e.quant.name;
      values.speed = f.tokS(e.tok_s);
      values.range = f.tokRange(e.tok_s_low, e.tok_s_high);
      values.need = f.gb(e.need_gb);
    }
    // No longer context to grow into once the view reads as much as the model can.
    var room = !v.max_context || v.context < v.max_context;
    var out = [];
    if (v.kind === "fits") {
      out.push(paragraph("tps-answer-main tps-answer-yes", fillPhrase(forKind(ui.answer_yes, card), values)));
      var fit = v.fit === "comfortable" ? (room ? ui.answer_comfortable : ui.answer_comfortable_no_room)
        : (room ? ui.answer_tight : ui.answer_tight_no_room);
      out.push(paragraph("tps-fit-" + v.fit, fillPhrase(fit, values)));
    } else if (v.kind === "offload") {
      var p = e.placement, system = e.system;
      values.cpu_layers = f.count(p.cpu_layers);
      values.gpu_layers = f.count(p.gpu_layers);
      values.layers = f.count(p.layers);
      values.ram = f.gb(p.ram_gb);
      values.vram_used = f.gb(p.gpu_gb);
      values.ram_size = f.vram(system.size_gb);
      values.ram_kind = (ui.ram_kinds || {})[system.kind.id] || system.kind.id;
      out.push(paragraph("tps-answer-main tps-answer-offload", fillPhrase(ui.answer_offload, values)));
      out.push(paragraph("tps-fit-offload", fillPhrase(p.mode === "experts" ? ui.answer_offload_experts
        : ui.answer_offload_layers, values) + (p.mode === "experts" ? "" : " " + escapeHtml(ui.answer_offload_dense))));
    } else if (v.kind === "multi") {
      values.count = f.count(v.count);
      values.total = f.vram(card.vram_gb * v.count);
      out.push(paragraph("tps-answer-main tps-answer-multi", fillPhrase(ui.answer_multi, values)));
      values.need = f.gb(v.single_need_gb);
      values.quant = v.shortfall_quant;
      values.short = f.gb(v.shortfall_gb);
      values.usable = f.gb(v.usable_gb);
      out.push(paragraph("tps-answer-single", fillPhrase(ui.answer_multi_single, values)));
    } else {
      values.quant = v.shortfall_quant;
      values.need = f.gb(v.need_gb);
      values.short = f.gb(v.shortfall_gb);
      values.usable = f.gb(v.usable_gb);
      out.push(paragraph("tps-answer-main tps-answer-no", fillPhrase(forKind(ui.answer_no, card), values)));
      if (v.reason === "memory") {
        out.push(paragraph("tps-answer-reason", fillPhrase(ui.answer_no_ram,
          { ram_size: f.vram(v.ram_size_gb), ram_free: f.gb(v.ram_free_gb), need: values.need })));
      }
      if (v.raised) {
        var r = v.raised.estimate;
        out.push(paragraph("tps-answer-raised", fillPhrase(ui.answer_raised, {
          os: v.raised.limit.os, limit: f.gb(v.raised.limit.budget_gb), model: modelName, quant: r.quant.name,
          need: f.gb(r.need_gb), speed: f.tokS(r.tok_s), range: f.tokRange(r.tok_s_low, r.tok_s_high) }) +
          ' <a href="' + escapeHtml(calc.cardHref(card)) + '#memory-share">' + escapeHtml(ui.answer_raised_how) + "</a>"));
      }
    }
    if (v.beyond_context) {
      out.push(paragraph("tps-context-limit", fillPhrase(ui.beyond_context, {
        model: modelName, max_context: f.count(v.max_context), context: f.count(v.context) })));
    }
    if (v.command) out.push(commandHtml(ui, v.command));
    return out.join("");
  }

  // A cell of the "On your …" column: the verdict's label and, where it runs, quant and speed.
  function cellHtml(v, ui, f) {
    var e = v.estimate, html;
    if (v.kind === "none") {
      html = '<span class="tps-fit-none">' + escapeHtml(ui.fit.none) + "</span>";
      if (v.raised) {
        html += '<br><small class="tps-fit-raised">' + escapeHtml(ui.raised_cell) + " · " +
          escapeHtml(v.raised.estimate.quant.name) + " · " + escapeHtml(f.tokS(v.raised.estimate.tok_s)) + "</small>";
      }
    } else if (v.kind === "fits") {  // as narrow as before: the quant, coloured by the fit, and the speed
      html = '<span class="tps-fit-' + v.fit + '">' + escapeHtml(e.quant.name) + "</span> · " + escapeHtml(f.tokS(e.tok_s));
    } else {
      var label = v.kind === "offload" ? ui.fit.offload
        : calc.pluralLabel(ui.multi_cell || [], v.count).replace("{count}", f.count(v.count));
      html = '<span class="tps-fit-' + v.kind + '">' + escapeHtml(label) + "</span> · " +
        escapeHtml(e.quant.name) + " · " + escapeHtml(f.tokS(e.tok_s));
    }
    if (v.beyond_context && ui.context_limit) {
      html += '<br><small class="tps-context-limit">' + fillPhrase(ui.context_limit,
        { max_context: f.count(v.max_context) }) + "</small>";
    }
    return html;
  }

  var api = { decide: decide, answerHtml: answerHtml, cellHtml: cellHtml, forKind: forKind };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.tpsVerdict = api;
})(this);
