// The calculator of a model page: the estimator of tps_atlas/estimate/ and tps_atlas/pages/figures.py,
// run in the browser on the site's one data file (assets/tps-data.json, written by
// tps_atlas/web/data.py). The page reads fully without it: the card table is there as built,
// for the default inputs; this script recomputes it when an input changes.
//
// The pure part (estimator and number formatting) loads in Node too; tests/test_parity.py
// holds it to the Python estimator and to Babel's formatting. The page part runs only on
// a page with a <form class="tps-inputs">.
(function () {
  "use strict";

  var has = function (object, key) {
    return object != null && Object.prototype.hasOwnProperty.call(object, key);
  };

  // ------------------------------------------------------------ estimator (tps_atlas/estimate/memory.py, speed.py, fit.py)

  function quant(settings, name) {
    var wanted = String(name).toLowerCase();
    for (var rank = 0; rank < settings.quants.length; rank++) {
      var q = settings.quants[rank];
      if (q.name.toLowerCase() === wanted) {
        return { name: q.name, bits_per_weight: q.bits_per_weight, rank: rank, native_only: !!q.native_only,
                 family: q.family || "" };
      }
    }
    return null;
  }

  // From the quality ceiling down to the floor (a floor above the ceiling lifts it), without
  // the formats only some models ship in.
  function allowedQuants(settings, floor, ceiling) {
    var floorQuant = quant(settings, floor || settings.min_quality);
    if (!floorQuant) throw new Error("unknown quant: " + floor);
    var ceilingQuant = quant(settings, ceiling || settings.max_quality);
    if (!ceilingQuant) throw new Error("unknown quant: " + ceiling);
    var out = [];
    for (var rank = Math.min(ceilingQuant.rank, floorQuant.rank); rank <= floorQuant.rank; rank++) {
      var q = quant(settings, settings.quants[rank].name);
      if (!q.native_only) out.push(q);
    }
    return out;
  }

  // A model that ships in one format is offered only in it.
  function modelQuants(settings, model, floor, ceiling) {
    if (model.native_format) return [quant(settings, model.native_format)];
    return allowedQuants(settings, floor, ceiling);
  }

  function weightsGb(parametersB, q) {
    return parametersB * q.bits_per_weight / 8;
  }

  // KV cache of a recorded attention layout (gqa, mha, mqa with an optional sliding window; mla).
  function kvCacheGb(arch, context, bytesPerElement) {
    var perTokenLayer;
    if (arch.attention === "csa") return compressedCacheGb(arch, context, bytesPerElement);
    if (arch.attention === "mla") {
      perTokenLayer = (arch.kv_lora_rank + arch.rope_head_dim) * bytesPerElement;
      return (arch.layers - (arch.linear_attention_layers || 0)) * context * perTokenLayer / 1e9;
    }
    perTokenLayer = 2 * arch.kv_heads * arch.head_dim * bytesPerElement;
    var windowSize = arch.sliding_window || 0;
    var linearLayers = arch.linear_attention_layers || 0;
    // no sliding_window_layers: every attention layer is windowed
    var windowLayers = windowSize
      ? (arch.sliding_window_layers == null ? arch.layers - linearLayers : arch.sliding_window_layers) : 0;
    var fullLayers = arch.layers - windowLayers - linearLayers;
    var windowTokens = Math.min(context, windowSize || context);
    return perTokenLayer * (fullLayers * context + windowLayers * windowTokens) / 1e9;
  }

  // Compressed attention (DeepSeek V4): one vector, key and value, per token of the window on every
  // layer, and per `ratio` tokens of the context on the compressed layers (memory.py compressed_cache_gb).
  function compressedCacheGb(arch, context, bytesPerElement) {
    var vector = (arch.kv_heads || 1) * (arch.head_dim || 0);
    var attending = arch.layers - (arch.linear_attention_layers || 0);
    var elements = attending * Math.min(context, arch.sliding_window || context) * vector;
    (arch.compressed_layers || []).forEach(function (group) {
      elements += group.layers * Math.ceil(context / group.ratio) * (vector + (group.indexer_head_dim || 0));
    });
    return elements * bytesPerElement / 1e9;
  }

  function memoryNeeded(model, q, context, settings, kvPrecision) {
    var memory = settings.memory;
    var precision = kvPrecision || memory.default_kv_precision;
    var bytesPerElement = memory.kv_bytes_per_element[precision];
    var kv;
    if (model.architecture) {
      kv = kvCacheGb(model.architecture, context, bytesPerElement);
    } else {
      var scale = bytesPerElement / memory.kv_bytes_per_element[memory.default_kv_precision];
      kv = memory.kv_estimate_gb_per_1k_tokens * context / 1000 * scale;
    }
    var weights = weightsGb(model.parameters_b, q);
    // the vision encoder, loaded apart at F16 (llama.cpp's mmproj)
    var vision = (model.vision_encoder_b || 0) * memory.vision_encoder_bits_per_weight / 8;
    return { weights_gb: weights, kv_gb: kv, buffer_gb: memory.compute_buffer_gb, vision_gb: vision,
             total_gb: weights + kv + memory.compute_buffer_gb + vision, from_architecture: !!model.architecture,
             vocab_size: model.architecture ? model.architecture.vocab_size : null };
  }

  // The first hardware class of the calibration that matches the card (tps_atlas/estimate/calibration.py SpeedClass).
  function speedClass(calibration, card) {
    var classes = calibration.classes || [];
    for (var i = 0; i < classes.length; i++) {
      var c = classes[i];
      if ((!c.vendors.length || c.vendors.indexOf(card.vendor) >= 0) &&
          (!c.architectures.length || c.architectures.indexOf(card.architecture || "") >= 0) &&
          (!c.memory_types.length || c.memory_types.indexOf(card.memory_type || "") >= 0)) return c;
    }
    return null;
  }

  // Share of the bandwidth bound a card reaches at a quant: its class's (times its factor for the
  // quant's family: on Apple M2-M4 the legacy Q4_0 and Q8_0 reach more), or (calibrations without
  // classes) the memory type's factor when listed (HBM), else the vendor's; times the quant's and
  // the architecture's.
  function efficiency(calibration, q, card) {
    var cls = speedClass(calibration, card);
    if (cls) {
      var quantFactor = has(calibration.quant_efficiency, q.name) ? calibration.quant_efficiency[q.name] : 1.0;
      var familyFactor = has(cls.quant_factors, q.family) ? cls.quant_factors[q.family] : 1.0;
      return quantFactor * cls.efficiency * familyFactor;
    }
    var classFactor = has(calibration.memory_type_factors, card.memory_type || "")
      ? calibration.memory_type_factors[card.memory_type || ""]
      : calibration.vendor_factors[card.vendor];
    var archFactor = has(calibration.architecture_factors, card.architecture || "")
      ? calibration.architecture_factors[card.architecture || ""] : 1.0;
    return calibration.quant_efficiency[q.name] * classFactor * archFactor;
  }

  function overheadMs(calibration, card) {
    var cls = speedClass(calibration, card);
    return cls ? cls.overhead_ms : (calibration.overhead_ms || 0);
  }

  function speedRange(calibration, card) {
    var cls = speedClass(calibration, card);
    return cls ? cls.range : calibration.range;
  }

  // Decode: weights and (kv_read_factor of) the KV cache at the context read per token.
  function tokensPerSecond(model, q, card, calibration, kvGb) {
    var readGb = weightsGb(model.read_parameters_b, q);
    var kvRead = (kvGb || 0) * (calibration.kv_read_factor || 0);
    var overhead = overheadMs(calibration, card);
    if (!overhead && !kvRead) return card.bandwidth_gb_s / readGb * efficiency(calibration, q, card);
    var seconds = (readGb + kvRead) / (card.bandwidth_gb_s * efficiency(calibration, q, card)) + overhead / 1000;
    return 1.0 / seconds;
  }

  // Prompt processing (tps_atlas/estimate/speed.py): compute bound, two FLOP per active parameter and token
  // (a mixture of experts' times prompt_moe_factor) plus the class's FLOP per byte of the KV cache at the
  // prompt's mean depth (kvGb: half the cache of a prompt that fills the context).
  function promptTokensPerSecond(model, card, calibration, kvGb) {
    var cls = speedClass(calibration, card);
    if (!cls) return null;
    var flops = card.compute_tflops ? card.compute_tflops * 1e12 * cls.prompt_efficiency
      : card.bandwidth_gb_s * 1e9 * cls.prompt_flop_per_byte;
    var moe = model.active_parameters_b != null ? (calibration.prompt_moe_factor || 1) : 1;
    return flops / (2 * model.read_parameters_b * 1e9 * moe + (cls.prompt_kv_flop_per_byte || 0) * (kvGb || 0) * 1e9);
  }

  // What a model may fill on the device (tps_atlas/estimate/fit.py usable_gb): the seed's fits x VRAM, or
  // the device's memory budget, worked out in Python for each card (tps_atlas/estimate/budget.py).
  function usesBudget(settings, calibration) {
    return !!(calibration && calibration.fit_rule === "budget" && settings.budget);
  }

  function usableGb(card, settings, calibration) {
    return usesBudget(settings, calibration) && card.budget_gb != null ? card.budget_gb
      : settings.fit.fits * card.vram_gb;
  }

  // The device's memory in the decimal GB needs are counted in (tps_atlas/estimate/fit.py memory_gb).
  function memoryGb(card, settings, calibration) {
    return card.vram_gb * (usesBudget(settings, calibration) ? settings.budget.gb_per_gib : 1);
  }

  // A set of ``count`` identical cards as one device with count times the memory (figures.multi_card):
  // under the budget the set's budget is the card's own plus the other cards' whole memory, as
  // tps_atlas/estimate/budget.py device_budget_gb works it out for the pooled card.
  function pooledCard(card, count, settings) {
    var pooled = Object.assign({}, card, { vram_gb: card.vram_gb * count });
    if (card.budget_gb != null && settings.budget) {
      pooled.budget_gb = card.budget_gb + (count - 1) * card.vram_gb * settings.budget.gb_per_gib;
    }
    return pooled;
  }

  // The memory a run needs under the calibration: with the budget, llama.cpp's compute buffer at the
  // context and for the model's vocabulary in place of the flat buffer (tps_atlas/estimate/fit.py
  // calibrated_memory, budget.py compute_buffer_gb).
  function calibratedMemory(memory, context, settings, calibration) {
    if (!usesBudget(settings, calibration)) return memory;
    var b = settings.budget;
    var logits = b.ubatch_tokens * Math.max(0, (memory.vocab_size || 0) - b.buffer_reference_vocab) * b.logit_bytes / 1e9;
    var buffer = b.buffer_base_gb + b.buffer_per_1k_tokens_gb * Math.max(0, context - b.buffer_reference_tokens) / 1000 +
      logits;
    var out = {};
    Object.keys(memory).forEach(function (key) { out[key] = memory[key]; });
    out.buffer_gb = buffer;
    out.total_gb = memory.weights_gb + memory.kv_gb + buffer + memory.vision_gb;
    return out;
  }

  function verdict(needGb, vramGb, settings, usable) {
    if (needGb > (usable == null ? settings.fit.fits * vramGb : usable)) return "none";
    return needGb <= settings.fit.comfortable * vramGb ? "comfortable" : "tight";
  }

  // A unified machine that holds the model once its GPU's limit is raised (estimator.raised_fit).
  function raisedFit(card, settings, calibration, candidates, context) {
    if (!usesBudget(settings, calibration) || !card.unified || !card.raised) return null;
    for (var i = 0; i < candidates.length; i++) {
      var need = calibratedMemory(candidates[i].memory, context, settings, calibration).total_gb;
      if (need <= card.raised.budget_gb) return { limit: card.raised, quant: candidates[i].quant, need_gb: need };
    }
    return null;
  }

  // The quants a card may get, best first, with the memory each needs: the same for every card.
  function candidateMemories(model, settings, context, floor, kvPrecision, ceiling) {
    return modelQuants(settings, model, floor, ceiling).map(function (q) {
      return { quant: q, memory: memoryNeeded(model, q, context, settings, kvPrecision) };
    });
  }

  // A unified machine that runs it once its GPU limit is raised (tps_atlas/estimate/verdict.py raised_run): the
  // estimate on the device with the raised limit as its memory, or null.
  function raisedRun(model, card, settings, calibration, candidates, context, raised) {
    if (!raised) return null;
    var limit = raised.limit;
    var atLimit = Object.assign({}, card, { vram_gb: limit.budget_gb / settings.budget.gb_per_gib,
                                            budget_gb: limit.budget_gb });
    var e = estimate(model, atLimit, settings, calibration, candidates, context);
    return e.fit === "none" ? null : { limit: limit, estimate: e };
  }

  // How far a device that cannot hold the model falls short (tps_atlas/estimate/verdict.py missed_by), at the one
  // quant every place quotes: the model's own format, else (the seed's rule) the better of the floor and
  // shortfall_quant, else the most compressed allowed quant.
  function shortfallOf(model, card, settings, calibration, context, floor, kvPrecision, ceiling) {
    var floorQuant = quant(settings, floor || settings.min_quality), q;
    if (model.native_format) {
      q = quant(settings, model.native_format);
    } else if (calibration && calibration.name === "seed") {
      var rule = quant(settings, settings.shortfall_quant);
      q = rule.rank < floorQuant.rank ? rule : floorQuant;
    } else {
      var allowed = allowedQuants(settings, floorQuant.name, ceiling);
      q = allowed.length ? allowed[allowed.length - 1] : floorQuant;
    }
    var need = calibratedMemory(memoryNeeded(model, q, context, settings, kvPrecision), context, settings,
                                calibration).total_gb;
    var usable = usableGb(card, settings, calibration);
    // shown_gb: as every place states it, never "0.0" for a device that is short (Shortfall.shown_gb).
    return { quant: q, need_gb: need, usable_gb: usable, shortfall_gb: need - usable,
             shown_gb: Math.max(need - usable, settings.fit.smallest_shortfall_gb || 0) };
  }

  // One card: the least-compressed allowed quant that fits.
  function estimate(model, card, settings, calibration, candidates, context) {
    var usable = usableGb(card, settings, calibration), total = memoryGb(card, settings, calibration);
    for (var i = 0; i < candidates.length; i++) {
      var c = candidates[i];
      var memory = calibratedMemory(c.memory, context, settings, calibration);
      var fit = verdict(memory.total_gb, total, settings, usable);
      if (fit !== "none") {
        var tokS = tokensPerSecond(model, c.quant, card, calibration, memory.kv_gb);
        var range = speedRange(calibration, card);
        // A prompt that fills the context attends, on average, to half its KV cache.
        var prompt = promptTokensPerSecond(model, card, calibration, memory.kv_gb / 2);
        return { card: card, quant: c.quant, memory: memory, need_gb: memory.total_gb, tok_s: tokS,
                 tok_s_low: tokS * range.low, tok_s_high: tokS * range.high, fit: fit,
                 prompt_tok_s: prompt, ttft_s: prompt ? context / prompt : null, context: context };
      }
    }
    // Not fitting: the memory it would need is known only when one quant was in question.
    var only = candidates.length === 1 ? calibratedMemory(candidates[0].memory, context, settings, calibration) : null;
    return { card: card, quant: null, memory: only, need_gb: only ? only.total_gb : null,
             tok_s: null, tok_s_low: null, tok_s_high: null, fit: "none", prompt_tok_s: null, ttft_s: null,
             raised: raisedFit(card, settings, calibration, candidates, context) };
  }

  function compareKeys(a, b) {
    for (var i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return -1;
      if (a[i] > b[i]) return 1;
    }
    return 0;
  }

  // Released dates are ISO strings (YYYY-MM-DD), which sort as dates; none sorts first.
  function releasedKey(card) { return card.released || ""; }
  function nameKey(card) { return card.name.toLowerCase(); }

  // Fastest first; on equal speed (to six decimals) the newest card first, then by name.
  function speedKey(e) {
    if (e.speed_key === undefined) e.speed_key = e.tok_s ? roundNumber(e.tok_s, 6) : -1;
    return e.speed_key;
  }

  function speedOrder(a, b) {
    var x = speedKey(a), y = speedKey(b);
    if (x !== y) return y - x;
    var r = compareKeys([releasedKey(b.card)], [releasedKey(a.card)]);
    return r || compareKeys([nameKey(a.card)], [nameKey(b.card)]);
  }

  // Least memory first; among equal memory, as the tables order (tps_atlas/pages/figures.py smallest_order).
  function smallestOrder(a, b) {
    return a.card.vram_gb !== b.card.vram_gb ? a.card.vram_gb - b.card.vram_gb : speedOrder(a, b);
  }

  function missOrder(a, b) {
    return compareKeys([-a.card.vram_gb, nameKey(a.card)], [-b.card.vram_gb, nameKey(b.card)]);
  }

  // A page's figures over every card (tps_atlas/pages/figures.py): fitting rows fastest first, the
  // cards that cannot run it, the smallest and the fastest.
  function modelFigures(data, modelId, options) {
    options = options || {};
    var settings = data.settings;
    var calibration = data.calibrations[options.calibration || data.calibration];
    var model = data.models[modelId];
    if (!model) throw new Error("unknown model: " + modelId);
    var context = options.context || settings.context_tokens;
    var floor = quant(settings, options.floor || settings.min_quality).name;
    var candidates = candidateMemories(model, settings, context, floor, options.kvPrecision, options.ceiling);
    var rows = [], misses = [];
    data.cards.forEach(function (card) {
      var e = estimate(model, card, settings, calibration, candidates, context);
      e.measured = findMeasured(data, modelId, e);
      (e.fit === "none" ? misses : rows).push(e);
    });
    rows.sort(speedOrder);
    misses.sort(missOrder);
    var smallest = null;
    rows.forEach(function (e) { if (!smallest || smallestOrder(e, smallest) < 0) smallest = e; });
    // Cards it does not fit that run it with part of it in system RAM, fastest first.
    var system = ramSystem(data, options), offload = [];
    var offloadMemories = misses.length ? offloadCandidates(model, settings, data.ram, context, floor,
                                                             options.kvPrecision) : [];
    misses.forEach(function (e) {
      var o = offloadEstimate(model, e.card, settings, calibration, system, data.ram, offloadMemories, context);
      if (o) offload.push(o);
    });
    offload.sort(speedOrder);
    return { model: modelId, context: context, floor: floor, calibration: calibration,
             cards_total: data.cards.length, rows: rows, misses: misses,
             smallest: smallest, fastest: rows.length ? rows[0] : null, offload: offload, system: system };
  }

  // One model on one card, as `tps-atlas estimate` would give it.
  function estimateOne(data, modelId, cardId, options) {
    options = options || {};
    var settings = data.settings;
    var model = data.models[modelId];
    var card = null;
    for (var i = 0; i < data.cards.length; i++) if (data.cards[i].id === cardId) card = data.cards[i];
    if (!model || !card) throw new Error("unknown model or card: " + modelId + ", " + cardId);
    var calibration = data.calibrations[options.calibration || data.calibration];
    var context = options.context || settings.context_tokens;
    var candidates = candidateMemories(model, settings, context, options.floor || settings.min_quality,
                                       options.kvPrecision, options.ceiling);
    var e = estimate(model, card, settings, calibration, candidates, context);
    e.measured = findMeasured(data, modelId, e);
    if (e.fit === "none" && options.offload) {
      var floor = quant(settings, options.floor || settings.min_quality).name;
      var o = offloadEstimate(model, card, settings, calibration, ramSystem(data, options), data.ram,
                              offloadCandidates(model, settings, data.ram, context, floor, options.kvPrecision),
                              context);
      if (o) return o;
    }
    return e;
  }

  // Every model on one card, as its card page lists them (tps_atlas/pages/figures.py EstimateTable.card_rows,
  // card_offload): the models it runs, fastest first; those it runs with part of them in system RAM,
  // fastest first; those it cannot hold, closest first, each with what it would need
  // (nearest_miss). ``options.names`` (model id: name) breaks ties as the page does.
  function cardFigures(data, cardId, options) {
    options = options || {};
    var settings = data.settings, card = null;
    for (var i = 0; i < data.cards.length; i++) if (data.cards[i].id === cardId) card = data.cards[i];
    if (!card) throw new Error("unknown card: " + cardId);
    var calibration = data.calibrations[options.calibration || data.calibration];
    var context = options.context || settings.context_tokens;
    var floor = quant(settings, options.floor || settings.min_quality);
    var system = ramSystem(data, options);
    var names = options.names || {};
    var runs = [], offload = [], misses = [];
    Object.keys(data.models).forEach(function (id) {
      var model = data.models[id];
      var candidates = candidateMemories(model, settings, context, floor.name, options.kvPrecision, options.ceiling);
      var e = estimate(model, card, settings, calibration, candidates, context);
      e.model = id;
      e.modelData = model;
      e.name = names[id] || id;
      if (e.fit !== "none") {
        e.measured = findMeasured(data, id, e);
        runs.push(e);
        return;
      }
      var o = offloadEstimate(model, card, settings, calibration, system, data.ram,
                              offloadCandidates(model, settings, data.ram, context, floor.name, options.kvPrecision),
                              context);
      if (o) {
        o.model = id;
        o.name = e.name;
        offload.push(o);
        return;
      }
      var short = shortfallOf(model, card, settings, calibration, context, floor.name, options.kvPrecision,
                              options.ceiling);
      misses.push({ model: id, name: e.name, card: card, quant: short.quant, need_gb: short.need_gb,
                    shortfall_gb: short.shortfall_gb, shown_gb: short.shown_gb,
                    raised: raisedRun(model, card, settings, calibration, candidates, context, e.raised) });
    });
    var byName = function (a, b) { return compareKeys([a.name.toLowerCase()], [b.name.toLowerCase()]); };
    var fastest = function (a, b) { return b.tok_s - a.tok_s || byName(a, b); };
    runs.sort(fastest);
    offload.sort(fastest);
    misses.sort(function (a, b) { return a.shortfall_gb - b.shortfall_gb || byName(a, b); });
    return { card: card, context: context, floor: floor.name, system: system, runs: runs, offload: offload,
             misses: misses };
  }

  // The measured run shown beside an estimate (tps_atlas/measured/runs.py MeasuredIndex.find): same chip
  // and quant; the model itself before one of its size, the card itself before its chip-mates,
  // then the order of Python's ranking (shallowest context, newest, first in the file).
  function findMeasured(data, modelId, e) {
    if (!e.quant || !data.measured) return null;
    var runs = data.measured[modelId] || [];
    var chip = e.card.chip || e.card.id;
    var best = null, bestKey = null;
    runs.forEach(function (r) {
      if (r.chip !== chip || r.quant.toLowerCase() !== e.quant.name.toLowerCase()) return;
      var key = [r.own ? 0 : 1, r.card === e.card.id ? 0 : 1, r.rank];
      if (!best || compareKeys(key, bestKey) < 0) { best = r; bestKey = key; }
    });
    return best;
  }

  // ------------------------------------------------------------ offload (tps_atlas/estimate/offload.py)
  // A model that does not fit the card but fits card + system RAM: the placement llama.cpp would
  // use (--n-cpu-moe for mixtures of experts, -ngl for dense models) and its speed.

  // Routed-expert parameters (billions), or null for a dense model.
  function expertParametersB(model) {
    var total = model.parameters_b, active = model.active_parameters_b;
    var experts = model.experts_total, used = model.experts_active;
    if (!active || !experts || !used || experts <= used || active >= total) return null;
    return Math.min(total, (total - active) * experts / (experts - used));
  }

  function splitExperts(model, memory, expertsB) {
    var expertsGb = memory.weights_gb * expertsB / model.parameters_b;
    var sharedGb = memory.weights_gb - expertsGb;
    return { on_card: sharedGb + memory.kv_gb + onCardAlways(memory), shared_gb: sharedGb,
             layer_gb: expertsGb / model.architecture.layers };
  }

  // Buffers and the vision encoder (mmproj, loaded on the GPU) stay on the card whatever the split.
  function onCardAlways(memory) {
    return memory.buffer_gb + (memory.vision_gb || 0);
  }

  // ``cpuLayers`` expert layers ("experts") or whole layers ("layers") in RAM.
  function fixedPlacement(model, memory, mode, cpuLayers) {
    var layers = model.architecture.layers;
    cpuLayers = Math.max(0, Math.min(layers, cpuLayers));
    var gpuLayers = layers - cpuLayers;
    var expertsB = expertParametersB(model);
    if (mode === "experts" && expertsB !== null) {
      var split = splitExperts(model, memory, expertsB);
      var readShare = model.experts_active / model.experts_total;
      return { mode: "experts", layers: layers, cpu_layers: cpuLayers, gpu_layers: gpuLayers,
               gpu_gb: split.on_card + gpuLayers * split.layer_gb, ram_gb: cpuLayers * split.layer_gb,
               vram_read_gb: split.shared_gb + gpuLayers * split.layer_gb * readShare,
               ram_read_gb: cpuLayers * split.layer_gb * readShare, kv_gpu_share: 1.0 };
    }
    var layerGb = (memory.weights_gb + memory.kv_gb) / layers;
    var readGb = memory.weights_gb * model.read_parameters_b / model.parameters_b;
    return { mode: "layers", layers: layers, cpu_layers: cpuLayers, gpu_layers: gpuLayers,
             gpu_gb: gpuLayers * layerGb + onCardAlways(memory), ram_gb: cpuLayers * layerGb,
             vram_read_gb: readGb * gpuLayers / layers, ram_read_gb: readGb * cpuLayers / layers,
             kv_gpu_share: gpuLayers / layers };
  }

  // System RAM llama.cpp may fill beside the card (tps_atlas/estimate/offload.py ram_room): the size less the
  // seed's reserve, or under the budget the modules' binary gigabytes less what the OS keeps.
  function ramRoomGb(system, settings, ram, calibration) {
    return usesBudget(settings, calibration) ? system.size_gb * settings.budget.gb_per_gib - ram.os_keeps_gb
      : system.size_gb - ram.os_reserve_gb;
  }

  // Where each part goes, or null when card and RAM together cannot hold it.
  function place(model, memory, card, settings, system, ram, calibration) {
    if (card.unified || !model.architecture || card.vram_gb <= 0) return null;
    var layers = model.architecture.layers;
    var gpuRoom = usableGb(card, settings, calibration);
    var ramRoom = ramRoomGb(system, settings, ram, calibration);
    var expertsB = expertParametersB(model);
    if (expertsB !== null) {
      var split = splitExperts(model, memory, expertsB);
      if (split.on_card <= gpuRoom) {
        var onCard = Math.min(layers, Math.floor((gpuRoom - split.on_card) / split.layer_gb));
        var experts = fixedPlacement(model, memory, "experts", layers - onCard);
        return experts.cpu_layers === 0 || experts.ram_gb > ramRoom ? null : experts;
      }
    }
    var layerGb = (memory.weights_gb + memory.kv_gb) / layers;
    var gpuLayers = Math.min(layers - 1, Math.floor((gpuRoom - onCardAlways(memory)) / layerGb));
    if (gpuLayers < 1) return null;
    var split2 = fixedPlacement(model, memory, "layers", layers - gpuLayers);
    return split2.ram_gb <= ramRoom ? split2 : null;
  }

  function offloadWorking(placement, memory, q, card, calibration, system, ram) {
    var kvRead = memory.kv_gb * (calibration.kv_read_factor || 0);
    var w = { vram_read_gb: placement.vram_read_gb + kvRead * placement.kv_gpu_share,
              card_bandwidth_gb_s: card.bandwidth_gb_s, card_efficiency: efficiency(calibration, q, card),
              ram_read_gb: placement.ram_read_gb + kvRead * (1 - placement.kv_gpu_share),
              ram_bandwidth_gb_s: system.kind.bandwidth_gb_s, ram_efficiency: ram.efficiency,
              overhead_ms: overheadMs(calibration, card) + ram.overhead_ms };
    w.card_ms = 1000 * w.vram_read_gb / (w.card_bandwidth_gb_s * w.card_efficiency);
    w.ram_ms = 1000 * w.ram_read_gb / (w.ram_bandwidth_gb_s * w.ram_efficiency);
    w.seconds_per_token = (w.card_ms + w.ram_ms + w.overhead_ms) / 1000;
    return w;
  }

  // A prompt: the card's compute time plus one copy of the RAM part over PCIe per batch.
  function promptSeconds(model, card, calibration, placement, ram, tokens, kvGb) {
    var onCard = promptTokensPerSecond(model, card, calibration, (kvGb || 0) / 2);
    if (!onCard) return null;
    return tokens / onCard + Math.ceil(tokens / ram.batch_tokens) * placement.ram_gb / ram.pcie_gb_s;
  }

  // Quants offload tries, best first: the native format, else from best_quant down to the floor.
  function offloadCandidates(model, settings, ram, context, floor, kvPrecision) {
    var native = model.native_format ? quant(settings, model.native_format) : null;
    var ceiling = quant(settings, ram.best_quant).rank;
    var quants = native ? [native] : allowedQuants(settings, floor).filter(function (q) { return q.rank >= ceiling; });
    return quants.map(function (q) {
      return { quant: q, memory: memoryNeeded(model, q, context, settings, kvPrecision) };
    });
  }

  // The RAM of a view: size and kind from the options, else data/ram.yaml's default.
  function ramSystem(data, options) {
    var ram = data.ram;
    var size = options.ramGb != null && isFinite(options.ramGb) ? Number(options.ramGb) : ram.default.size_gb;
    var wanted = String(options.ramKind || ram.default.kind).toLowerCase(), kind = null;
    ram.kinds.forEach(function (k) { if (k.id.toLowerCase() === wanted) kind = k; });
    if (!kind) throw new Error("unknown RAM kind: " + options.ramKind);
    return { size_gb: size, kind: kind };
  }

  function offloadEstimate(model, card, settings, calibration, system, ram, candidates, context) {
    for (var i = 0; i < candidates.length; i++) {
      var c = candidates[i];
      var memory = calibratedMemory(c.memory, context, settings, calibration);
      var placement = place(model, memory, card, settings, system, ram, calibration);
      if (!placement) continue;
      var w = offloadWorking(placement, memory, c.quant, card, calibration, system, ram);
      var tokS = 1 / w.seconds_per_token;
      var ttft = promptSeconds(model, card, calibration, placement, ram, context, memory.kv_gb);
      return { card: card, quant: c.quant, memory: memory, need_gb: memory.total_gb, tok_s: tokS,
               tok_s_low: tokS * ram.range.low, tok_s_high: tokS * ram.range.high, fit: "offload",
               prompt_tok_s: ttft ? context / ttft : null, ttft_s: ttft, placement: placement, working: w,
               system: system, context: context };
    }
    return null;
  }

  // The llama-server line that reproduces a row (tps_atlas/estimate/commands.py).
  function llamaServer(modelId, e, context, kvPrecision, gpus) {
    var p = e.placement;
    var parts = ["llama-server", "-m", modelId + "-" + e.quant.name + ".gguf", "-c", String(context)];
    parts.push("-ngl", !p || p.mode === "experts" ? "99" : String(p.gpu_layers));
    if (p && p.mode === "experts") parts.push("--n-cpu-moe", String(p.cpu_layers));
    if (gpus > 1) parts.push("--tensor-split", new Array(gpus + 1).join("1,").slice(0, -1));
    if (kvPrecision && kvPrecision !== "f16") parts.push("-fa", "on", "-ctk", kvPrecision, "-ctv", kvPrecision);
    return parts.join(" ");
  }

  // ------------------------------------------------------------ numbers (tps_atlas/i18n/formatting.py)

  // ``value`` rounded to ``digits`` decimals as Python's round() does it: on the exact binary
  // value, ties to even. Returned as a decimal string ("12.2").
  function roundDecimal(value, digits) {
    if (!isFinite(value) || Math.abs(value) >= 1e21) return String(value);
    var negative = value < 0;
    var exact = Math.abs(value).toFixed(100);  // the double's exact expansion (to 100 places)
    var point = exact.indexOf(".");
    var kept = exact.slice(0, point) + exact.slice(point + 1, point + 1 + digits);
    var rest = exact.slice(point + 1 + digits);
    var up;
    if (rest[0] > "5") up = true;
    else if (rest[0] < "5") up = false;
    else if (/[1-9]/.test(rest.slice(1))) up = true;
    else up = Number(kept[kept.length - 1]) % 2 === 1;  // an exact tie: to even
    if (up) {
      var chars = kept.split(""), i = chars.length - 1;
      while (i >= 0 && chars[i] === "9") { chars[i] = "0"; i--; }
      if (i < 0) chars.unshift("1"); else chars[i] = String(Number(chars[i]) + 1);
      kept = chars.join("");
    }
    var whole = kept.slice(0, kept.length - digits).replace(/^0+(?=\d)/, "") || "0";
    var text = digits ? whole + "." + kept.slice(kept.length - digits) : whole;
    return negative && /[1-9]/.test(text) ? "-" + text : text;
  }

  function roundNumber(value, digits) {
    return Number(roundDecimal(value, digits));
  }

  var formatters = {};

  function numberFormat(language, digits) {
    var key = language + ":" + digits;
    if (!formatters[key]) {
      formatters[key] = new Intl.NumberFormat(language, {
        minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: true });
    }
    return formatters[key];
  }

  // Every number and month of a page, in its language, as Babel writes them on the server.
  function Formatter(language, units) {
    this.language = language;
    this.units = units || {};
    this.months = new Intl.DateTimeFormat(language, { month: "long", year: "numeric", timeZone: "UTC" });
    this.cache = {};  // a table formats the same few hundred values again and again
  }

  Formatter.prototype = {
    unit: function (symbol) { return has(this.units, symbol) ? this.units[symbol] : symbol; },
    // As Babel's percent pattern with one optional decimal: "85,3 %" in French, "85.3%" in English.
    percent: function (share) {
      var value = Number(roundDecimal(share * 100, 1));
      return this.decimal(value, Number.isInteger(value) ? 0 : 1) + this.unit("%");
    },
    decimal: function (value, digits) {
      if (digits === undefined) digits = 1;
      var key = digits + ":" + value;
      if (!has(this.cache, key)) {
        // Rounded exactly first; the nearest double then formats to those same digits.
        this.cache[key] = numberFormat(this.language, digits).format(roundNumber(value, digits));
      }
      return this.cache[key];
    },
    integer: function (value) { return this.decimal(value, 0); },
    significant: function (value) {
      if (value >= 100) return this.integer(value);
      return this.decimal(value, value >= 10 ? 1 : value < 1 ? 2 : 1);
    },
    // unit(" ") is what joins a number and its unit: a no-break space in French.
    // As the formatter: one decimal from 1 GB up; below, the digits asked for without trailing zeros.
    // Memory held, handed in as decimal GB, written in the page's memory unit (tps_atlas/i18n/formatting.py:
    // GiB under the memory budget, so that a need that fits a "24 GB" card never reads as more).
    gb: function (value, digits) {
      var perUnit = has(this.units, "gb_per_memory_unit") ? this.units.gb_per_memory_unit : 1;
      return this.memory(value / perUnit, digits, this.memoryUnit());
    },
    // Data read per token: decimal GB, the unit of bandwidth.
    gbRead: function (value, digits) { return this.memory(value, digits, this.unit("GB")); },
    // A size as labelled (a card's VRAM, a RAM kit), in the memory unit already.
    vram: function (value) { return this.memory(value, Number.isInteger(value) ? 0 : 1, this.memoryUnit()); },
    memoryUnit: function () { return has(this.units, "memory") ? this.units.memory : this.unit("GB"); },
    memory: function (value, digits, symbol) {
      if (digits === undefined) digits = 1;
      if (value >= 1) digits = Math.min(digits, 1);
      while (digits > 1 && roundNumber(value, digits) === roundNumber(value, digits - 1)) digits -= 1;
      return this.decimal(value, digits) + this.unit(" ") + symbol;
    },
    bandwidth: function (value) {
      return (value >= 100 ? this.integer(value) : this.decimal(value, 1)) + this.unit(" ") + this.unit("GB/s");
    },
    tokS: function (value) { return this.significant(value) + this.unit(" ") + "tok/s"; },
    seconds: function (value) { return this.significant(value) + this.unit(" ") + "s"; },
    // Whole numbers from 10 tok/s up; below, as the speeds themselves are written (never "1–1" beside 0.93).
    tokRange: function (low, high) { return this.rangeEnd(low) + "\u2013" + this.rangeEnd(high); },
    rangeEnd: function (value) { return value >= 10 ? this.integer(value) : this.significant(value); },
    month: function (isoDate) {
      var parts = String(isoDate).split("-");
      var key = "month:" + parts[0] + "-" + parts[1];
      if (!has(this.cache, key)) {
        this.cache[key] = this.months.format(new Date(Date.UTC(Number(parts[0]), Number(parts[1]) - 1, 1)));
      }
      return this.cache[key];
    },
    count: function (value) { return this.integer(value); },
  };

  // ------------------------------------------------------------ markup (tps_atlas/mkdocs/templates/model_table.html)

  // As Jinja's autoescape (markupsafe) writes text into a page.
  // Put escaped values into a trusted sentence from the catalogue ({name} placeholders only).
  // {card:dat} takes that form of a value that has forms (cardName), as tps_atlas/i18n/phrases.py fill does.
  function fillPhrase(phrase, values) {
    return phrase.replace(/\{(\w+)(?::(\w+))?\}/g, function (all, name, nameCase) {
      if (!has(values, name)) return all;
      var value = values[name];
      if (value && typeof value === "object") value = nameCase ? value.form(nameCase) : value.text;
      return escapeHtml(value);
    });
  }

  // A card's name with the forms of its kind (labels.names, from tps_atlas/i18n/names.py browser_forms).
  function cardName(labels, card) {
    var names = labels.names, text = card.name, forms = {};
    if (names && names.kinds[card.name_kind || "gpu"]) {
      var kind = names.kinds[card.name_kind || "gpu"];
      forms = new RegExp(names.vowel).test(text) ? kind.vowel : kind.other;
    }
    function form(nameCase) {
      var lower = nameCase.toLowerCase();
      if (lower !== nameCase) {
        var found = form(lower);
        return found.charAt(0).toUpperCase() + found.slice(1);
      }
      var words = nameCase === "name" ? forms.name : forms[nameCase] || forms.nom;
      return words ? words.split("{name}").join(text) : text;
    }
    return { text: text, form: form };
  }

  // How one estimate was worked out, in the page's language (as the built page shows it).
  // The command line of a row, as the page shows it under a worked figure.
  function runHtml(labels, e, kvPrecision) {
    return labels.run ? "<p>" + escapeHtml(labels.run) + '</p><pre><code class="tps-command">' +
      escapeHtml(llamaServer(labels.model, e, e.context, kvPrecision, 1)) + "</code></pre>" : "";
  }

  // How an offload row was worked out (tps_atlas/pages/offload.py offload_working).
  function offloadWorkingHtml(data, labels, f, e, kvPrecision) {
    var model = data.models[labels.model], p = e.placement, w = e.working, o = labels.offload;
    var values = {
      card: cardName(labels, e.card), cpu_layers: f.count(p.cpu_layers), gpu_layers: f.count(p.gpu_layers),
      layers: f.count(p.layers), vram_used: f.gb(p.gpu_gb), ram: f.gb(p.ram_gb),
      vram_read: f.gbRead(w.vram_read_gb, 2), ram_read: f.gbRead(w.ram_read_gb, 2),
      used: f.count(model.experts_active || 0), experts: f.count(model.experts_total || 0),
      bandwidth: f.bandwidth(w.card_bandwidth_gb_s), efficiency: f.percent(w.card_efficiency),
      ram_bandwidth: f.bandwidth(w.ram_bandwidth_gb_s), ram_efficiency: f.percent(w.ram_efficiency),
      overhead: f.decimal(w.overhead_ms, 2), ms: f.decimal(w.seconds_per_token * 1000, 2), tok_s: f.tokS(e.tok_s),
      context: f.count(e.context), pcie: f.bandwidth(data.ram.pcie_gb_s), batch: f.count(data.ram.batch_tokens),
      ttft: e.ttft_s ? f.seconds(e.ttft_s) : "",
    };
    var lines = p.mode === "experts" ? o.experts_lines : o.layers_lines;
    return "<strong>" + fillPhrase(o.title, values) + "</strong><ul>" +
      lines.map(function (line) { return "<li>" + fillPhrase(line, values) + "</li>"; }).join("") + "</ul>" +
      runHtml(labels, e, kvPrecision);
  }

  function workingHtml(data, labels, f, e, kvPrecision) {
    if (e.fit === "offload" && labels.offload) return offloadWorkingHtml(data, labels, f, e, kvPrecision);
    var model = data.models[labels.model];
    var calibration = data.calibrations[data.calibration];
    var readB = model.read_parameters_b;
    var read = weightsGb(readB, e.quant);
    var eff = efficiency(calibration, e.quant, e.card);
    var overhead = overheadMs(calibration, e.card);
    var cls = speedClass(calibration, e.card);
    var kvRead = e.memory.kv_gb * (calibration.kv_read_factor || 0);
    var ms = ((read + kvRead) / (e.card.bandwidth_gb_s * eff) + overhead / 1000) * 1000;
    var values = {
      card: cardName(labels, e.card), params: labels.read_params, bits: f.decimal(e.quant.bits_per_weight, 2),
      read: f.gbRead(read, 2), bandwidth: f.bandwidth(e.card.bandwidth_gb_s), efficiency: f.percent(eff),
      overhead: f.decimal(overhead, 2), ms: f.decimal(ms, 2), tok_s: f.tokS(e.tok_s),
      weights: f.gb(e.memory.weights_gb), kv: f.gb(e.memory.kv_gb, 2), buffer: f.gb(e.memory.buffer_gb),
      vision: f.gb(e.memory.vision_gb || 0), need: f.gb(e.memory.total_gb), vram: f.vram(e.card.vram_gb),
      context: f.count(e.context), kv_factor: f.decimal(calibration.kv_read_factor || 0, 2), kv_read: f.gbRead(kvRead, 2),
      kv_data: f.gbRead(e.memory.kv_gb, 2),
      speed_class: cls ? labels.working.speed_classes[cls.name] : "", backend: cls && cls.backend || "",
      prompt_tok_s: e.prompt_tok_s ? f.tokS(e.prompt_tok_s) : "",
      ttft: e.ttft_s ? f.seconds(e.ttft_s) : "",
    };
    var w = labels.working;
    // A class that names no backend leaves out the line about it (tps_atlas/pages/model/working.py).
    var lines = (cls ? w.class_lines : w.lines).filter(function (line) {
      return values.backend || line.indexOf("{backend}") < 0;
    });
    return "<strong>" + fillPhrase(w.title, values) + "</strong><ul>" +
      lines.map(function (line) { return "<li>" + fillPhrase(line, values) + "</li>"; }).join("") +
      "</ul><p>" + escapeHtml(w.check) + "</p><pre><code>" +
      escapeHtml("llama-bench -m " + labels.model + "-" + e.quant.name + ".gguf -p 0 -n 128 -ngl 99") + "</code></pre>" +
      runHtml(labels, e, kvPrecision);
  }

  function escapeHtml(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&#34;").replace(/'/g, "&#39;");
  }

  function cardHref(card) { return "../../cards/" + card.id + "/"; }

  // The measured run beside an estimate (model and card tables alike), or "".
  function measuredHtml(run, f, m) {
    if (!run || !m) return "";
    var context = run.depth ? fillPhrase(m.depth, { depth: f.count(run.depth) }) : escapeHtml(m.empty);
    var values = { tok_s: f.tokS(run.tok_s), model: run.model_name, backend: run.backend, build: run.build,
                   month: f.month(run.date) };
    return '<br><small class="tps-measured">' + fillPhrase(run.own ? m.text : m.other, values) +
      ' (<a href="' + escapeHtml(run.source) + '">' +
      fillPhrase(run.build === "unknown" ? m.detail_no_build : m.detail, values).replace("{context}", context) +
      "</a>)</small>";
  }

  // One row of the card table, in the static table's exact markup.
  function rowHtml(e, f, labels) {
    var c = e.card;
    var speed = e.tok_s
      ? escapeHtml(f.tokS(e.tok_s)) + " <small>" + escapeHtml(f.tokRange(e.tok_s_low, e.tok_s_high)) + "</small>"
      : "";
    speed += measuredHtml(e.measured, f, labels.measured);
    var p = e.placement;
    if (p && labels.offload) {
      speed += '<br><small class="tps-offload">' + fillPhrase(p.mode === "experts" ? labels.offload.experts
        : labels.offload.layers, { cpu_layers: f.count(p.cpu_layers), layers: f.count(p.layers),
                                   ram: f.gb(p.ram_gb) }) + "</small>";
    }
    return '<tr data-card="' + escapeHtml(c.id) + '"><td class="tps-fit-' + e.fit + '">' + escapeHtml(labels.fit[e.fit]) +
      "</td><td>" + speed + "</td>" +
      '<td><a href="' + escapeHtml(cardHref(c)) + '">' + escapeHtml(c.name) + "</a> <small>" + escapeHtml(c.vendor) +
      "</small></td><td>" + escapeHtml(f.vram(c.vram_gb)) + "</td><td>" +
      escapeHtml(e.need_gb != null ? f.gb(e.need_gb) : "") + "</td><td>" + escapeHtml(e.quant ? e.quant.name : "") +
      "</td><td>" + escapeHtml(f.bandwidth(c.bandwidth_gb_s)) + "</td><td>" +
      escapeHtml(c.released ? f.month(c.released) : "") + "</td></tr>";
  }

  // ------------------------------------------------------------ card pages (tps_atlas/mkdocs/templates/card_tables.html)

  function modelLink(e, labels) {
    return '<a href="../../models/' + escapeHtml(e.model) + '/">' + escapeHtml(e.name) + "</a>";
  }

  function headRow(headers, confidence, speedColumn) {
    return "<thead><tr>" + headers.map(function (h, i) {
      return '<th scope="col">' + escapeHtml(h) + (i === speedColumn ? " <small>(" + escapeHtml(confidence) + ")</small>" : "") +
        "</th>";
    }).join("") + "</tr></thead>";
  }

  // Beside a figure worked out for more context than the model reads (tps_atlas/pages/card.py context_limit).
  function contextLimitHtml(fig, e, f, labels) {
    var arch = e.modelData && e.modelData.architecture, limit = arch && arch.max_context;
    return limit && limit < fig.context && labels.context_limit
      ? '<br><small class="tps-context-limit">' + fillPhrase(labels.context_limit, { max_context: f.count(limit) }) + "</small>" : "";
  }

  // A card page's tables for a view, in the built block's markup: the models it runs, those it runs
  // with offload (with what that assumes), those it cannot hold.
  function cardTablesHtml(fig, f, labels, kvPrecision) {
    var models = labels.models, out = [];
    if (fig.runs.length) {
      out.push('<table class="tps-table tps-models-table">' + headRow(labels.headers.models, labels.confidence, 1) +
        "<tbody>" + fig.runs.map(function (e) {
          return '\n<tr><td class="tps-fit-' + e.fit + '">' + escapeHtml(labels.fit[e.fit]) + "</td><td>" +
            escapeHtml(f.tokS(e.tok_s)) + " <small>" + escapeHtml(f.tokRange(e.tok_s_low, e.tok_s_high)) + "</small>" +
            measuredHtml(e.measured, f, labels.measured) + contextLimitHtml(fig, e, f, labels) + "</td><td>" +
            modelLink(e) + "</td><td>" +
            escapeHtml(models[e.model][1]) + "</td><td>" + escapeHtml(f.gb(e.need_gb)) + "</td><td>" +
            escapeHtml(e.quant.name) + "</td></tr>";
        }).join("") + "\n</tbody></table>");
    } else {
      out.push("<p>" + escapeHtml(labels.none_fit) + "</p>");
    }
    if (fig.offload.length) {
      var system = fig.system;
      out.push('<h2 id="offload">' + escapeHtml(labels.offload_heading) + "</h2><p>" +
        fillPhrase(labels.offload_intro, { card: fig.card.name, ram_size: f.vram(system.size_gb),
                                           ram_kind: labels.ram_kinds[system.kind.id] || system.kind.id,
                                           ram_bandwidth: f.bandwidth(system.kind.bandwidth_gb_s) }) + "</p>");
      out.push('<table class="tps-table tps-offload-table">' + headRow(labels.headers.offload, labels.confidence, 0) +
        "<tbody>" + fig.offload.map(function (e) {
          var p = e.placement;
          var detail = fillPhrase(p.mode === "experts" ? labels.offload.experts : labels.offload.layers,
                                  { cpu_layers: f.count(p.cpu_layers), layers: f.count(p.layers), ram: f.gb(p.ram_gb) });
          return "\n<tr><td>" + escapeHtml(f.tokS(e.tok_s)) + " <small>" + escapeHtml(f.tokRange(e.tok_s_low, e.tok_s_high)) +
            "</small></td><td>" + modelLink(e) + "</td><td>" + escapeHtml(models[e.model][1]) + "</td><td>" +
            escapeHtml(f.gb(e.need_gb)) + "</td><td>" + escapeHtml(e.quant.name) + "</td><td>" + detail +
            '<br><code class="tps-command">' + escapeHtml(llamaServer(e.model, e, fig.context, kvPrecision, 1)) +
            "</code></td></tr>";
        }).join("") + "\n</tbody></table>");
    }
    if (fig.misses.length) {
      out.push('<h2 id="too-large">' + escapeHtml(labels.misses_heading) + "</h2>");
      out.push('<table class="tps-table tps-misses-table">' + headRow(labels.headers.misses, labels.confidence, -1) +
        "<tbody>" + fig.misses.map(function (m) {
          var raised = m.raised && labels.raised_cell ? '<br><small class="tps-fit-raised">' +
            escapeHtml([labels.raised_cell, m.raised.estimate.quant.name, f.tokS(m.raised.estimate.tok_s)].join(" · ")) + "</small>" : "";
          return "\n<tr><td>" + modelLink(m) + "</td><td>" + escapeHtml(f.gb(m.shown_gb)) + raised + "</td><td>" +
            escapeHtml(f.gb(m.need_gb)) + "</td><td>" + escapeHtml(m.quant.name) + "</td><td>" +
            escapeHtml(models[m.model][1]) + "</td></tr>";
        }).join("") + "\n</tbody></table>");
    }
    return out.join("\n");
  }

  // The rows as the template lays them out: each on its own line.
  function rowsHtml(estimates, f, labels) {
    return estimates.map(function (e) { return "\n" + rowHtml(e, f, labels); }).join("") + "\n";
  }

  function tileHtml(label, main, detail) {
    return '<div class="tps-tile"><p class="tps-tile-main">' + escapeHtml(main) + '</p><p class="tps-tile-label">' +
      escapeHtml(label) + "</p>" + (detail ? '<p class="tps-tile-detail">' + escapeHtml(detail) + "</p>" : "") + "</div>";
  }

  // The form gettext picks for a count, from the runs the page carries ([first count, text], ...).
  function pluralLabel(runs, count) {
    var text = runs.length ? runs[0][1] : "";
    runs.forEach(function (run) { if (run[0] <= count) text = run[1]; });
    return text;
  }

  // The headline tiles that depend on the inputs (tps_atlas/pages/model/headline.py tiles): the devices that
  // run it, entirely or with part in RAM; smallest; fastest.
  function memoryInName(card) {
    return !card.unified && new RegExp("(^|[^\\d.])" + String(card.vram_gb).replace(".", "\\.") + " ?GB\\b").test(card.name);
  }

  // The first tile's two parts; a part of none is not counted (headline.py run_parts).
  function runParts(fig, f, labels) {
    if (fig.offload.length === 0) return labels.all_entirely;
    if (fig.rows.length === 0) return labels.all_in_ram;
    return fillPhrase(labels.run_parts, { fit: f.count(fig.rows.length), offload: f.count(fig.offload.length) });
  }

  function tilesHtml(fig, f, labels, totalTile) {
    var run = fig.rows.length + fig.offload.length;
    // None: "No device / runs it", never "0 / devices run it".
    var tiles = [run === 0 ? tileHtml(labels.none_run, labels.no_device, "") :
                 tileHtml(pluralLabel(labels.devices_run, run), f.count(run),
                          runParts(fig, f, labels))];
    if (totalTile) tiles.push(totalTile);
    if (fig.smallest) {
      var s = fig.smallest, q = fig.fastest;
      // The size once: not beside a name that states it as sold (tps_atlas/i18n/names.py memory_in_name).
      var smallVram = memoryInName(s.card) ? [] : [f.vram(s.card.vram_gb)];
      var fastVram = memoryInName(q.card) ? [] : [f.vram(q.card.vram_gb)];
      tiles.push(tileHtml(s.card.unified ? labels.smallest_device : labels.smallest, s.card.name,
                          smallVram.concat([s.quant.name, f.tokS(s.tok_s)]).join(" · ")));
      // An offload row faster than every fit: the tile names the fastest that holds it entirely.
      var beaten = fig.offload.length > 0 && fig.offload[0].tok_s > q.tok_s;
      tiles.push(tileHtml(beaten ? labels.fastest_entirely : labels.fastest, q.card.name,
                          [f.tokS(q.tok_s)].concat(fastVram).join(" · ")));
    }
    return tiles.map(function (t) { return "\n" + t; }).join("") + "\n";
  }

  // ------------------------------------------------------------ inputs and the address

  var MAX_CONTEXT = 10000000;
  var ADDRESS_DELAY_MS = 250;  // the view goes into the address this long after the last change

  // The context field as a reader types it: a whole number, digits grouped or not ("131,072",
  // "131.072", "131 072"), within ``range``; anything else (1e9, 2.5, -5, 0) is null, never guessed.
  function parseContext(text, range) {
    var t = String(text == null ? "" : text).trim();
    if (!/^(\d+|\d{1,3}([.,'\u00a0\u202f ]\d{3})+)$/.test(t)) return null;
    var value = Number(t.replace(/\D/g, ""));
    return value >= range[0] && value <= range[1] ? value : null;
  }

  // The view's inputs from a query string; anything unreadable falls back to the default.
  function readState(search, defaults, options) {
    var params = new URLSearchParams(search || "");
    var state = { context: defaults.context, floor: defaults.floor, search: "", vram: "", all: false,
                  kv: (options.kv || [""])[0], ceiling: defaults.ceiling };
    var context = parseInt(params.get("context"), 10);
    if (context >= 1) state.context = Math.min(context, MAX_CONTEXT);
    var floor = params.get("floor");
    (options.quants || []).forEach(function (name) {
      if (floor && name.toLowerCase() === floor.toLowerCase()) state.floor = name;
    });
    var ceiling = params.get("max");  // the quality ceiling: ?max=F16 for unquantized weights
    (options.quants || []).forEach(function (name) {
      if (ceiling && name.toLowerCase() === ceiling.toLowerCase()) state.ceiling = name;
    });
    state.search = params.get("search") || "";
    var vram = params.get("vram");
    if (vram && (options.tiers || []).indexOf(vram) >= 0) state.vram = vram;
    state.all = ["1", "on", "true", "yes"].indexOf((params.get("all") || "").toLowerCase()) >= 0;
    var kv = params.get("kv");
    if (kv && (options.kv || []).indexOf(kv) >= 0) state.kv = kv;
    state.ram = defaults.ram;
    state.ramkind = defaults.ram_kind;
    var ram = parseFloat(params.get("ram"));
    if (ram >= 0 && ram <= 100000) state.ram = ram;
    var ramkind = params.get("ramkind");
    if (ramkind && (options.ramKinds || []).indexOf(ramkind) >= 0) state.ramkind = ramkind;
    return state;
  }

  // The query string that reproduces a view: only what differs from the defaults.
  function queryString(state, defaults) {
    var params = new URLSearchParams();
    if (state.context !== defaults.context) params.set("context", String(state.context));
    if (state.floor !== defaults.floor) params.set("floor", state.floor);
    if (state.ceiling && state.ceiling !== defaults.ceiling) params.set("max", state.ceiling);
    if (state.search) params.set("search", state.search);
    if (state.vram) params.set("vram", state.vram);
    if (state.all) params.set("all", "1");
    if (state.kv && state.kv !== defaults.kv) params.set("kv", state.kv);
    if (state.ram != null && state.ram !== defaults.ram) params.set("ram", String(state.ram));
    if (state.ramkind && state.ramkind !== defaults.ram_kind) params.set("ramkind", state.ramkind);
    var text = params.toString();
    return text ? "?" + text : "";
  }

  var INPUT_NAMES = ["context", "floor", "max", "search", "vram", "all", "kv", "ram", "ramkind"];

  // A view's query string with the address's other parameters kept (?card= of "My device").
  function withOthers(query, search) {
    var params = new URLSearchParams(search || "");
    INPUT_NAMES.forEach(function (name) { params.delete(name); });
    new URLSearchParams(query).forEach(function (value, name) { params.set(name, value); });
    var text = params.toString();
    return text ? "?" + text : "";
  }

  function matchesSearch(card, words) {
    var text = [card.name, card.vendor].concat(card.aliases || []).join(" ").toLowerCase();
    return words.every(function (word) { return text.indexOf(word) >= 0; });
  }

  // The rows the table shows for a view: fitting cards fastest first, then (with "all") the rest.
  function visibleRows(fig, state) {
    var words = state.search.toLowerCase().split(/\s+/).filter(Boolean);
    var tier = state.vram ? Number(state.vram) : null;
    var keep = function (e) {
      return (tier === null || e.card.vram_gb >= tier) && matchesSearch(e.card, words);
    };
    var offloaded = {};
    (fig.offload || []).forEach(function (e) { offloaded[e.card.id] = true; });
    var shown = fig.rows.filter(keep).concat((fig.offload || []).filter(keep));
    return state.all ? shown.concat(fig.misses.filter(function (e) { return keep(e) && !offloaded[e.card.id]; }))
      : shown;
  }

  // ------------------------------------------------------------ device search (tps_atlas/catalogue/cards.py search_cards)

  // Names that look the same compare the same, as name_key folds them: format characters (a zero-width
  // space) dropped, compatibility forms (full-width letters) and case folded.
  function foldName(text) {
    return String(text).replace(/\p{Cf}/gu, "").normalize("NFKC").toLowerCase();
  }

  // Best first: the exact name (or alias), a name ending in the query ("RTX 4090" finds
  // "GeForce RTX 4090" before "GeForce RTX 4090 D"), whole words, then any match; shorter names first.
  function searchCards(cards, query, limit) {
    var q = foldName(query).trim().split(/\s+/).join(" ");
    if (!q) return [];
    var words = q.split(" ");
    var found = [];
    cards.forEach(function (card) {
      var text = foldName([card.name, card.vendor, card.id].concat(card.aliases || []).join(" "));
      if (!words.every(function (w) { return text.indexOf(w) >= 0; })) return;
      var rank = 3;
      [card.name].concat(card.aliases || []).map(foldName).forEach(function (n) {
        if (n === q) rank = Math.min(rank, 0);
        else if (n.slice(-q.length - 1) === " " + q) rank = Math.min(rank, 1);
        else if ((" " + n + " ").indexOf(" " + q + " ") >= 0) rank = Math.min(rank, 2);
      });
      found.push({ card: card, rank: rank });
    });
    found.sort(function (a, b) {
      return a.rank - b.rank || a.card.name.length - b.card.name.length || (a.card.name < b.card.name ? -1 : 1);
    });
    return found.slice(0, limit).map(function (x) { return x.card; });
  }

  // ------------------------------------------------------------ a machine (tps_atlas/estimate/machine.py, machine_verdict.py)
  // One to four GPUs of any mix and the RAM beside them: llama.cpp's layer split in proportion to each
  // card's room, a token through the cards one after another, the rest in RAM where they cannot hold it.
  // Kept in its own section: the functions above are shared with the single-device estimator.

  function machineOs(data, id) {
    var m = data.settings.machine, found = null;
    m.os.forEach(function (o) { if (o.id === (id || m.default_os)) found = o; });
    return found;
  }

  // What llama.cpp may allocate on one card of the machine: only the main GPU keeps the desktop.
  function machineCardBudget(card, os, main) {
    var headless = card.budget_gb + (card.display_gb || 0);
    return main && card.display_gb ? headless - os.display_reserve_gb : headless;
  }

  // The fastest card (most bandwidth reached), the first of equals.
  function machineMainGpu(cards, q, calibration) {
    var best = 0, speed = -1;
    cards.forEach(function (c, i) {
      var s = c.bandwidth_gb_s * efficiency(calibration, q, c);
      if (s > speed) { speed = s; best = i; }
    });
    return best;
  }

  function machineRooms(machine, memory, main) {
    return machine.cards.map(function (c, i) {
      return machineCardBudget(c, machine.os, i === main) - memory.buffer_gb - (i === main ? memory.vision_gb || 0 : 0);
    });
  }

  // Whole layers per card in proportion to its room, never more than it holds; null if they do not fit.
  function layerSplit(layers, layerGb, room) {
    var caps = room.map(function (r) { return layerGb > 0 ? Math.max(0, Math.floor(r / layerGb + 1e-9)) : layers; });
    var sum = function (list) { return list.reduce(function (a, b) { return a + b; }, 0); };
    if (sum(caps) < layers) return null;
    var total = sum(room.map(function (r) { return Math.max(r, 0); }));
    var targets = room.map(function (r) { return layers * Math.max(r, 0) / total; });
    var counts = targets.map(function (t, i) { return Math.min(caps[i], Math.floor(t)); });
    while (sum(counts) < layers) {
      var pick = -1;
      for (var i = 0; i < room.length; i++) {
        if (counts[i] < caps[i] && (pick < 0 || targets[i] - counts[i] > targets[pick] - counts[pick])) pick = i;
      }
      counts[pick] += 1;
    }
    return counts;
  }

  function machineShares(machine, counts, layers, perLayerGb, readGb, room, memory, main, q, calibration) {
    return machine.cards.map(function (card, i) {
      var part = counts[i] / layers, reads = readGb * part;
      var always = memory.buffer_gb + (i === main ? memory.vision_gb || 0 : 0);
      return { card: card, layers: counts[i], budget_gb: room[i] + always, used_gb: counts[i] * perLayerGb + always,
               read_gb: reads, ms: 1000 * reads / (card.bandwidth_gb_s * efficiency(calibration, q, card)) +
                 overheadMs(calibration, card) * part };
    });
  }

  function handoffMs(shares, limits) {
    var used = shares.filter(function (s) { return s.layers > 0; }).length;
    return limits.handoff_ms * Math.max(0, used - 1);
  }

  function sharesMs(shares, limits) {
    return shares.reduce(function (a, s) { return a + s.ms; }, 0) + handoffMs(shares, limits);
  }

  function machinePrompt(model, shares, layers, calibration, kvGb) {
    var seconds = 0;
    for (var i = 0; i < shares.length; i++) {
      if (!shares[i].layers) continue;
      var speed = promptTokensPerSecond(model, shares[i].card, calibration, kvGb);
      if (!speed) return null;
      seconds += shares[i].layers / layers / speed;
    }
    return seconds ? 1 / seconds : null;
  }

  // Every card holds its own compute buffer.
  function machineMemory(memory, cards) {
    var out = Object.assign({}, memory, { buffer_gb: memory.buffer_gb * cards });
    out.total_gb = out.weights_gb + out.kv_gb + out.buffer_gb + (out.vision_gb || 0);
    return out;
  }

  function machineRange(machine, calibration) {
    var low = Infinity, high = 0;
    machine.cards.forEach(function (c) {
      var r = speedRange(calibration, c);
      low = Math.min(low, r.low); high = Math.max(high, r.high);
    });
    return { low: low, high: high };
  }

  // The least-compressed candidate whose every layer the cards hold (machine.machine_fit), or null.
  function machineFit(data, model, machine, calibration, candidates, context) {
    var settings = data.settings, limits = settings.machine;
    var n = model.architecture ? model.architecture.layers : 100;
    var totalMemory = machine.cards.reduce(function (a, c) { return a + memoryGb(c, settings, calibration); }, 0);
    for (var i = 0; i < candidates.length; i++) {
      var q = candidates[i].quant, memory = calibratedMemory(candidates[i].memory, context, settings, calibration);
      var main = machineMainGpu(machine.cards, q, calibration), room = machineRooms(machine, memory, main);
      var perLayer = (memory.weights_gb + memory.kv_gb) / n, counts = layerSplit(n, perLayer, room);
      if (!counts) continue;
      var read = memory.weights_gb * model.read_parameters_b / model.parameters_b +
        memory.kv_gb * (calibration.kv_read_factor || 0);
      var shares = machineShares(machine, counts, n, perLayer, read, room, memory, main, q, calibration);
      var tokS = 1000 / sharesMs(shares, limits), need = machineMemory(memory, machine.cards.length);
      var range = machineRange(machine, calibration), prompt = machinePrompt(model, shares, n, calibration, memory.kv_gb / 2);
      return { card: machine.cards[main], quant: q, memory: need, need_gb: need.total_gb, tok_s: tokS,
               tok_s_low: tokS * range.low, tok_s_high: tokS * range.high,
               fit: need.total_gb <= settings.fit.comfortable * totalMemory ? "comfortable" : "tight",
               prompt_tok_s: prompt, ttft_s: prompt ? context / prompt : null, context: context,
               shares: shares, main_gpu: main, tensor_split: counts, machine: machine };
    }
    return null;
  }

  function machineRamFree(data, machine) {
    return machine.system.size_gb * data.settings.budget.gb_per_gib - machine.os.ram_keeps_gb;
  }

  // The cards full and the rest in RAM (machine._offload_at), or null.
  function machineOffloadAt(data, model, machine, calibration, context, memory, q, ramFree) {
    var ram = data.ram, limits = data.settings.machine, layers = model.architecture.layers;
    var main = machineMainGpu(machine.cards, q, calibration), room = machineRooms(machine, memory, main);
    var kvRead = memory.kv_gb * (calibration.kv_read_factor || 0);
    var expertsB = expertParametersB(model), placement = null, counts = null, gpuRead = 0, perLayer = 0;
    if (expertsB !== null) {
      var expertsGb = memory.weights_gb * expertsB / model.parameters_b, sharedGb = memory.weights_gb - expertsGb;
      var layerGb = expertsGb / layers, readShare = model.experts_active / model.experts_total;
      var always = (sharedGb + memory.kv_gb) / layers;
      for (var cpu = 1; cpu <= layers; cpu++) {
        perLayer = always + layerGb * (layers - cpu) / layers;
        counts = layerSplit(layers, perLayer, room);
        if (!counts) continue;
        var ramGb = cpu * layerGb;
        if (ramGb > ramFree) return null;
        var vramRead = sharedGb + (layers - cpu) * layerGb * readShare;
        gpuRead = vramRead + kvRead;
        placement = { mode: "experts", layers: layers, cpu_layers: cpu, gpu_layers: layers - cpu,
                      ram_gb: ramGb, vram_read_gb: vramRead, ram_read_gb: cpu * layerGb * readShare, kv_gpu_share: 1 };
        break;
      }
    }
    if (!placement) {
      perLayer = (memory.weights_gb + memory.kv_gb) / layers;
      var caps = room.reduce(function (a, r) { return a + Math.max(0, Math.floor(r / perLayer)); }, 0);
      var onGpus = Math.min(layers - 1, caps);
      if (onGpus < 1) return null;
      counts = layerSplit(onGpus, perLayer, room);
      var read = memory.weights_gb * model.read_parameters_b / model.parameters_b, share = onGpus / layers;
      var inRam = (layers - onGpus) * perLayer;
      if (inRam > ramFree) return null;
      gpuRead = read * share + kvRead * share;
      placement = { mode: "layers", layers: layers, cpu_layers: layers - onGpus, gpu_layers: onGpus, ram_gb: inRam,
                    vram_read_gb: read * share, ram_read_gb: read * (1 - share), kv_gpu_share: share };
    }
    var gpuLayers = counts.reduce(function (a, b) { return a + b; }, 0);
    var shares = machineShares(machine, counts, gpuLayers, perLayer, gpuRead, room, memory, main, q, calibration);
    placement.gpu_gb = shares.reduce(function (a, s) { return a + s.used_gb; }, 0);
    var ramRead = placement.ram_read_gb + kvRead * (1 - placement.kv_gpu_share);
    var ms = sharesMs(shares, limits) + 1000 * ramRead / (machine.system.kind.bandwidth_gb_s * ram.efficiency) +
      ram.overhead_ms;
    var tokS = 1000 / ms, prompt = machinePrompt(model, shares, gpuLayers, calibration, memory.kv_gb / 2), ttft = null;
    if (prompt) ttft = context / prompt + Math.ceil(context / ram.batch_tokens) * placement.ram_gb / ram.pcie_gb_s;
    var need = machineMemory(memory, machine.cards.length);
    return { card: machine.cards[main], quant: q, memory: need, need_gb: need.total_gb, tok_s: tokS,
             tok_s_low: tokS * ram.range.low, tok_s_high: tokS * ram.range.high, fit: "offload",
             prompt_tok_s: ttft ? context / ttft : null, ttft_s: ttft, placement: placement, system: machine.system,
             context: context, shares: shares, main_gpu: main, tensor_split: counts, machine: machine };
  }

  // The shortfall quant (verdict.shortfall_quant): the native format, else the most compressed allowed.
  function machineShortfallQuant(settings, model, floor, ceiling) {
    if (model.native_format) return quant(settings, model.native_format);
    var allowed = allowedQuants(settings, floor, ceiling);
    return allowed.length ? allowed[allowed.length - 1] : quant(settings, floor);
  }

  function machineReason(model, need, usable, ramFree) {
    if (need > usable + ramFree) return "memory";
    return model.architecture ? "placement" : "no_layout";
  }

  // The verdict for a machine (machine_verdict.machine_verdict): {kind: fits | offload | none, estimate,
  // reason, shortfall}; one card is the single-device estimator at the machine's RAM and OS.
  function machineVerdict(data, modelId, machine, options) {
    options = options || {};
    var settings = data.settings, model = data.models[modelId];
    if (!model) throw new Error("unknown model: " + modelId);
    var calibration = data.calibrations[options.calibration || data.calibration];
    var context = options.context || settings.context_tokens;
    var floor = quant(settings, options.floor || settings.min_quality).name;
    var ram = Object.assign({}, data.ram, { os_keeps_gb: machine.os.ram_keeps_gb });
    var candidates = candidateMemories(model, settings, context, floor, options.kvPrecision, options.ceiling);
    var offloads = offloadCandidates(model, settings, ram, context, floor, options.kvPrecision);
    var ramFree, e;
    if (machine.cards.length === 1) {
      var one = machine.cards[0];
      var card = one.display_gb ? Object.assign({}, one, { budget_gb: machineCardBudget(one, machine.os, true) }) : one;
      e = estimate(model, card, settings, calibration, candidates, context);
      if (e.fit !== "none") return { kind: "fits", estimate: e, machine: machine };
      var o = offloadEstimate(model, card, settings, calibration, machine.system, ram, offloads, context);
      if (o) return { kind: "offload", estimate: o, machine: machine };
      var s = shortfallOf(model, card, settings, calibration, context, floor, options.kvPrecision, options.ceiling);
      ramFree = Math.max(0, ramRoomGb(machine.system, settings, ram, calibration));
      return { kind: "none", shortfall: s, machine: machine, card: card,
               reason: card.unified ? "no_system_ram" : machineReason(model, s.need_gb, s.usable_gb, ramFree) };
    }
    e = machineFit(data, model, machine, calibration, candidates, context);
    if (e) return { kind: "fits", estimate: e, machine: machine };
    ramFree = machineRamFree(data, machine);
    if (model.architecture) {
      for (var i = 0; i < offloads.length; i++) {
        var memory = calibratedMemory(offloads[i].memory, context, settings, calibration);
        var found = machineOffloadAt(data, model, machine, calibration, context, memory, offloads[i].quant, ramFree);
        if (found) return { kind: "offload", estimate: found, machine: machine };
      }
    }
    var q = machineShortfallQuant(settings, model, floor, options.ceiling);
    var need = machineMemory(calibratedMemory(memoryNeeded(model, q, context, settings, options.kvPrecision), context,
                                              settings, calibration), machine.cards.length).total_gb;
    var main = machineMainGpu(machine.cards, q, calibration);
    var usable = machine.cards.reduce(function (a, c, j) { return a + machineCardBudget(c, machine.os, j === main); }, 0);
    return { kind: "none", machine: machine, card: machine.cards[main],
             shortfall: { quant: q, need_gb: need, usable_gb: usable, shortfall_gb: need - usable,
                          shown_gb: Math.max(need - usable, settings.fit.smallest_shortfall_gb || 0) },
             reason: machineReason(model, need, usable, ramFree) };
  }

  // The llama-server line of a machine's estimate: the layer counts as --tensor-split, --main-gpu.
  function machineCommand(modelId, e, context, kvPrecision) {
    var line = llamaServer(modelId, e, context, kvPrecision, 1);
    if (!e.tensor_split || e.tensor_split.length < 2) return line;
    var split = " --tensor-split " + e.tensor_split.join(",") + " --main-gpu " + e.main_gpu;
    var fa = line.indexOf(" -fa on");
    return fa < 0 ? line + split : line.slice(0, fa) + split + line.slice(fa);
  }

  // A machine from its short form (machine_verdict.parse_machine): ID[,ID…][~RAM_GB[~KIND[~OS]]]. Untrusted
  // (a link): {machine} or {error: what was wrong}, never an exception, nothing of it kept as markup.
  var MACHINE_ID = /^[a-z0-9][a-z0-9._-]{0,79}$/, MACHINE_SIZE = /^[0-9]{1,6}(\.[0-9]{1,2})?$/;

  function parseMachine(data, text) {
    var limits = data.settings.machine;
    if (typeof text !== "string" || !text || text.length > 400) return { error: "form" };
    var parts = text.split("~");
    if (parts.length > 4) return { error: "form" };
    var ids = parts[0].split(",");
    if (ids.length > limits.max_cards) return { error: "cards" };
    var byId = {}, cards = [];
    data.cards.forEach(function (c) { byId[c.id] = c; });
    for (var i = 0; i < ids.length; i++) {
      if (!MACHINE_ID.test(ids[i]) || !has(byId, ids[i])) return { error: "card" };
      cards.push(byId[ids[i]]);
    }
    if (cards.length > 1 && cards.some(function (c) { return c.unified; })) return { error: "unified" };
    var size = data.ram.default.size_gb;
    if (parts.length > 1 && parts[1]) {
      if (!MACHINE_SIZE.test(parts[1]) || !(Number(parts[1]) > 0) || Number(parts[1]) > limits.max_ram_gb) {
        return { error: "ram" };
      }
      size = Number(parts[1]);
    }
    var kindId = parts.length > 2 && parts[2] ? parts[2] : data.ram.default.kind, kind = null;
    data.ram.kinds.forEach(function (k) { if (k.id === kindId) kind = k; });
    if (!kind) return { error: "ram_kind" };
    var os = machineOs(data, parts.length > 3 && parts[3] ? parts[3] : null);
    if (!os) return { error: "os" };
    return { machine: { cards: cards, system: { size_gb: size, kind: kind }, os: os } };
  }

  // The short form, defaults left out from the end (machine_verdict.machine_link).
  function machineLink(data, machine) {
    var parts = [machine.cards.map(function (c) { return c.id; }).join(","), String(machine.system.size_gb),
                 machine.system.kind.id, machine.os.id];
    var defaults = ["", String(data.ram.default.size_gb), data.ram.default.kind, data.settings.machine.default_os];
    while (parts.length > 1 && parts[parts.length - 1] === defaults[parts.length - 1]) parts.pop();
    return parts.join("~");
  }

  var machineApi = {
    layerSplit: layerSplit, machineVerdict: machineVerdict, machineCommand: machineCommand,
    parseMachine: parseMachine, machineLink: machineLink, machineOs: machineOs,
  };

  var api = {
    quant: quant, allowedQuants: allowedQuants, modelQuants: modelQuants, weightsGb: weightsGb, kvCacheGb: kvCacheGb,
    memoryNeeded: memoryNeeded, efficiency: efficiency, tokensPerSecond: tokensPerSecond, verdict: verdict,
    candidateMemories: candidateMemories, estimate: estimate, estimateOne: estimateOne, modelFigures: modelFigures,
    pooledCard: pooledCard, usableGb: usableGb, calibratedMemory: calibratedMemory, ramRoomGb: ramRoomGb,
    roundDecimal: roundDecimal, Formatter: Formatter, escapeHtml: escapeHtml, fillPhrase: fillPhrase, cardName: cardName,
    pluralText: pluralLabel, parseContext: parseContext, rowHtml: rowHtml, rowsHtml: rowsHtml,
    tilesHtml: tilesHtml, memoryInName: memoryInName, pluralLabel: pluralLabel, readState: readState, queryString: queryString,
    visibleRows: visibleRows, workingHtml: workingHtml, promptTokensPerSecond: promptTokensPerSecond,
    speedClass: speedClass, place: place, offloadEstimate: offloadEstimate, offloadCandidates: offloadCandidates,
    ramSystem: ramSystem, llamaServer: llamaServer, cardHref: cardHref, shortfallOf: shortfallOf, raisedRun: raisedRun,
    cardFigures: cardFigures, cardTablesHtml: cardTablesHtml, foldName: foldName, searchCards: searchCards,
  };

  Object.assign(api, machineApi);

  if (typeof module !== "undefined" && module.exports) module.exports = api;
  if (typeof document === "undefined") return;

  // ------------------------------------------------------------ the page

  // The data file sits beside this script, whatever the page's depth or language.
  var script = document.currentScript;
  var dataUrl = new URL("tps-data.json", script && script.src ? script.src : document.baseURI).href;
  var dataPromise = null;

  function loadData() {
    if (!dataPromise) {
      dataPromise = fetch(dataUrl, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error(dataUrl + ": " + response.status);
        return response.json();
      });
    }
    return dataPromise;
  }

  // The shared controls' words (tps_atlas/web/ui.py), written into every page before the scripts.
  function uiLabels() {
    var holder = document.getElementById("tps-ui");
    return holder ? JSON.parse(holder.textContent) : null;
  }

  // The column names as CSS strings (--tps-h1, ...): a phone shows each row as a block whose
  // figures carry their column's name (tps.css).
  function labelColumns(table) {
    Array.from(table.tHead.rows[0].cells).forEach(function (th, i) {
      var first = th.firstChild, name = "--tps-h" + (i + 1);
      var label = JSON.stringify((first ? first.textContent : "").trim());
      // The build writes these labels into the page; setting one again restyles every cell of the table.
      if (table.style.getPropertyValue(name) !== label) table.style.setProperty(name, label);
    });
  }

  function setUp(form) {
    var page = form.closest(".tps-model");
    var holder = page && page.querySelector("script.tps-calculator");
    if (!holder) return;
    var labels = JSON.parse(holder.textContent);
    var ui = uiLabels() || {};
    var pageRows = ui.page_rows || Infinity;
    var f = new Formatter(labels.language, labels.units);
    var defaults = labels.defaults;
    var options = {
      quants: Array.from(form.elements.floor.options).map(function (o) { return o.value; }),
      tiers: Array.from(form.elements.vram.options).map(function (o) { return o.value; }).filter(Boolean),
      kv: form.elements.kv ? Array.from(form.elements.kv.options).map(function (o) { return o.value; }) : [],
      ramKinds: form.elements.ramkind ? Array.from(form.elements.ramkind.options).map(function (o) { return o.value; })
        : [],
    };
    defaults.kv = options.kv[0];  // the page lists the default precision first
    var contextField = form.elements.context;
    var contextRange = [Number(contextField.getAttribute("data-min")) || 1,
                        Number(contextField.getAttribute("data-max")) || MAX_CONTEXT];
    var invalid = document.getElementById("context-invalid");
    var tiles = page.querySelector(".tps-tiles");
    var totalTile = tiles && tiles.children[1] ? tiles.children[1].outerHTML : "";
    var workings = Array.from(page.querySelectorAll(".tps-working"));
    var table = page.querySelector("table.tps-table");
    var noFit = page.querySelector(".tps-nofit");
    var contextWarning = page.querySelector(".tps-context-warning");
    var data = null, cache = {}, shownKey = null, showAll = false, followUp = null, recordLater = null;

    // Below the table: what to change when the filters leave nothing, and "show all" for long tables.
    var empty = document.createElement("div");
    empty.className = "tps-empty";
    empty.setAttribute("role", "status");
    empty.hidden = true;
    empty.innerHTML = "<p>" + fillPhrase(ui.no_rows || "", { all: ui.all_label || "" }) +
      '</p><p><button type="button" class="md-button">' + escapeHtml(ui.clear || "") + "</button></p>";
    var more = document.createElement("p");
    more.className = "tps-more";
    more.hidden = true;
    more.innerHTML = '<button type="button" class="md-button tps-show-all"></button>';
    (table || noFit || holder).insertAdjacentElement("afterend", more);
    (table || noFit || holder).insertAdjacentElement("afterend", empty);

    function ensureTable() {
      if (table) return table;
      table = document.createElement("table");
      table.className = "tps-table tps-cards-table";
      table.setAttribute("data-model", labels.model);
      table.innerHTML = "<caption>" + escapeHtml(ui.row_hint || "") + "</caption><thead><tr>" +
        labels.headers.map(function (h, i) {
          return '<th scope="col">' + escapeHtml(h) + (i === 1 ? " <small>" + escapeHtml(labels.confidence) + "</small>" : "") + "</th>";
        }).join("") + "</tr></thead><tbody></tbody>";
      (noFit || holder).insertAdjacentElement("afterend", table);
      labelColumns(table);
      return table;
    }

    function ensureNoFit() {
      if (noFit) return noFit;
      noFit = document.createElement("p");
      noFit.className = "tps-nofit";
      noFit.innerHTML = labels.no_fit;  // a trusted sentence from the catalogue, values escaped
      holder.insertAdjacentElement("afterend", noFit);
      return noFit;
    }

    // Rows that have a worked example open it from the keyboard too, and say whether it is open:
    // their first cell (the fit) becomes a button that carries the state (a table row itself may
    // not, outside a tree grid).
    function decorate(rows) {
      rows.forEach(function (row) {
        if (!row.hasAttribute("data-card") || row.querySelector(".tps-fit-none") || row.querySelector(".tps-row-toggle")) return;
        var cell = row.cells[0], button = document.createElement("button");
        button.type = "button";
        button.className = "tps-row-toggle";
        button.setAttribute("aria-expanded", "false");
        while (cell.firstChild) button.appendChild(cell.firstChild);
        cell.appendChild(button);
      });
    }

    function setExpanded(row, open) {
      var button = row.querySelector(".tps-row-toggle");
      if (button) button.setAttribute("aria-expanded", open ? "true" : "false");
    }

    // A long table shows its first rows and a button for the rest; ``total`` rows in all.
    function showMore(total) {
      var trimmed = !showAll && total > pageRows;
      more.hidden = !trimmed;
      if (trimmed) more.firstChild.textContent = fillPhrase(pluralLabel(ui.show_all || [], total), { count: f.count(total) });
      return trimmed;
    }

    // Put a view's inputs into the form (on load, from the address).
    function fill(state) {
      contextField.value = String(state.context);
      form.elements.floor.value = state.floor;
      form.elements.search.value = state.search;
      form.elements.vram.value = state.vram;
      form.elements.all.checked = state.all;
      if (form.elements.kv) form.elements.kv.value = state.kv;
      if (form.elements.ceiling && state.ceiling) form.elements.ceiling.value = state.ceiling;
      if (form.elements.ram && state.ram != null) form.elements.ram.value = String(state.ram);
      if (form.elements.ramkind && state.ramkind) form.elements.ramkind.value = state.ramkind;
    }

    // The view the form shows now; null while the context field holds something unreadable.
    function current() {
      var context = parseContext(contextField.value, contextRange);
      var bad = context === null;
      contextField.setAttribute("aria-invalid", bad ? "true" : "false");
      if (invalid) {
        invalid.textContent = bad ? ui.context_invalid || "" : "";
        invalid.hidden = !bad;
      }
      if (bad) return null;
      return {
        context: context,
        floor: form.elements.floor.value || defaults.floor,
        search: form.elements.search.value.trim(),
        vram: form.elements.vram.value,
        all: form.elements.all.checked,
        kv: form.elements.kv ? form.elements.kv.value : defaults.kv,
        ceiling: form.elements.ceiling ? form.elements.ceiling.value : defaults.ceiling,
        ram: ramInput(),
        ramkind: form.elements.ramkind ? form.elements.ramkind.value : defaults.ram_kind,
      };
    }

    // System RAM in GB: what the box says, the default where it is empty or unreadable.
    function ramInput() {
      var ram = form.elements.ram ? parseFloat(form.elements.ram.value) : NaN;
      return ram >= 0 && ram <= 100000 ? ram : defaults.ram;
    }

    // The figures of a context and floor; searching and filtering by memory reuse them.
    function figures(state, fresh) {
      var key = state.context + "|" + state.floor + "|" + state.kv + "|" + state.ceiling + "|" + state.ram + "|" +
        state.ramkind;
      if (fresh || !has(cache, key)) {
        if (Object.keys(cache).length >= 16) cache = {};
        cache[key] = modelFigures(data, labels.model, { context: state.context, floor: state.floor,
                                                        kvPrecision: state.kv, ceiling: state.ceiling,
                                                        ramGb: state.ram, ramKind: state.ramkind });
      }
      return cache[key];
    }

    // Recompute every card for the form's inputs and show it (``fresh``: even when the same
    // inputs were computed before); returns what it did and the time it took (ms). An input
    // fires both "input" and "change": the second finds the view already shown and stops.
    function update(fresh) {
      if (!data) return null;
      var started = performance.now();
      var state = current();
      if (!state) return null;
      var key = queryString(state, defaults) + "|" + showAll;
      if (fresh !== true && key === shownKey) return api.last;
      shownKey = key;
      var fig = figures(state, fresh === true);
      var computed = performance.now();
      var rows = visibleRows(fig, state);
      if (tiles) tiles.innerHTML = tilesHtml(fig, f, labels, totalTile);
      var trimmed = showMore(rows.length);
      if (rows.length || table) {
        var t = ensureTable();
        hiddenRows = [];
        t.tBodies[0].innerHTML = rowsHtml(trimmed ? rows.slice(0, pageRows) : rows, f, labels);
        t.hidden = !rows.length;
        decorate(Array.from(t.tBodies[0].rows));
      }
      if (fig.rows.length && noFit) noFit.hidden = true;
      if (!fig.rows.length) ensureNoFit().hidden = false;
      if (contextWarning && labels.max_context) {
        contextWarning.hidden = state.context <= labels.max_context;
        // a trusted sentence from the catalogue, values escaped
        if (!contextWarning.hidden) contextWarning.innerHTML = fillPhrase(labels.beyond_context, { context: f.count(state.context) });
      }
      // Nothing shown although cards run it: the filters hid them; say what to change.
      empty.hidden = rows.length > 0 || (!fig.rows.length && !state.all);
      // The worked examples describe the default inputs only.
      var isDefault = state.context === defaults.context && state.floor === defaults.floor &&
        state.kv === defaults.kv && state.ceiling === defaults.ceiling && state.ram === defaults.ram &&
        state.ramkind === defaults.ram_kind;
      workings.forEach(function (w) { w.hidden = !isDefault; });
      var done = performance.now();
      form.setAttribute("data-state", "ready");
      api.last = { compute_ms: computed - started, total_ms: done - started, rows: rows.length,
                   shown: trimmed ? pageRows : rows.length, cards_fit: fig.rows.length, state: state };
      // The "My device" answer follows once the table is on screen; the address once the reader
      // pauses (recording it costs a browser more than drawing the table: once per pause, not per key).
      var last = api.last;
      var query = last.query = withOthers(queryString(state, defaults), window.location.search);
      window.clearTimeout(followUp);
      followUp = window.setTimeout(function () { page.dispatchEvent(new CustomEvent("tps:update", { detail: last })); }, 0);
      window.clearTimeout(recordLater);
      recordLater = window.setTimeout(function () {
        if (query !== window.location.search && !(query === "" && window.location.search === "?")) {
          window.history.replaceState(window.history.state, "", window.location.pathname + query + window.location.hash);
        }
      }, ADDRESS_DELAY_MS);
      return api.last;
    }

    function toggleWorking(row) {
      var next = row.nextElementSibling;
      if (next && next.classList.contains("tps-working-row")) {
        next.remove();
        setExpanded(row, false);
        return;
      }
      var state = current();
      if (!state || !data) return;
      var e = estimateOne(data, labels.model, row.getAttribute("data-card"),
                          { context: state.context, floor: state.floor, kvPrecision: state.kv,
                            ceiling: state.ceiling, offload: true, ramGb: state.ram, ramKind: state.ramkind });
      if (!e.quant) return;
      var extra = document.createElement("tr");
      extra.className = "tps-working-row";
      extra.innerHTML = '<td colspan="' + row.cells.length + '">' + workingHtml(data, labels, f, e, state.kv) + "</td>";
      row.insertAdjacentElement("afterend", extra);
      setExpanded(row, true);
    }

    // A click on a row (or on its button, by Enter or Space) shows how its figure was worked out
    // (again: hides it).
    page.addEventListener("click", function (event) {
      var row = event.target.closest && event.target.closest("table.tps-table tbody tr[data-card]");
      if (row && !event.target.closest("a")) toggleWorking(row);
    });
    more.addEventListener("click", function () {
      showAll = true;
      if (hiddenRows.length) {
        var body = table.tBodies[0];
        hiddenRows.splice(0).forEach(function (row) {
          row.hidden = false;
          if (!row.parentNode) body.appendChild(row);
        });
        decorate(Array.from(table.tBodies[0].rows));
        more.hidden = true;
      } else {
        update();
      }
    });
    empty.addEventListener("click", function (event) {
      if (!event.target.closest("button")) return;
      form.elements.search.value = "";
      form.elements.vram.value = "";
      update();
      form.elements.search.focus();
    });

    form.addEventListener("submit", function (event) { event.preventDefault(); update(); });
    form.addEventListener("input", function () { update(); });
    form.addEventListener("change", function () { update(); });

    var initial = readState(window.location.search, defaults, options);
    fill(initial);
    // The built table holds every card; until an input changes, show its first rows.
    var hiddenRows = [];
    if (table && showMore(table.tBodies[0].rows.length)) {
      hiddenRows = Array.from(table.tBodies[0].rows).slice(pageRows);
      hiddenRows.forEach(function (row) { row.hidden = true; });
    }
    if (table) decorate(Array.from(table.tBodies[0].rows).slice(0, pageRows));
    loadData().then(function (loaded) {
      data = loaded;
      api.data = data;
      api.update = update;
      var isDefault = queryString(initial, defaults) === "";
      if (isDefault) {
        shownKey = "|false";  // the built table already shows the defaults
        form.setAttribute("data-state", "ready");
        // The rows kept for "show all" leave the page while it is idle: the first input change
        // then has no hundreds of rows to take out.
        var idle = window.requestIdleCallback || function (run) { return setTimeout(run, 200); };
        idle(function () {
          hiddenRows.forEach(function (row) { if (row.hidden) row.remove(); });
        });
      } else {
        update();
      }
    }).catch(function (error) {
      form.setAttribute("data-state", "failed");
      if (window.console) window.console.warn("TPS Atlas calculator:", error);
    });
  }

  // The card pages' words, one file per language beside the data file (tps_atlas/web/data.py card_labels).
  var cardLabelPromises = {};

  function loadCardLabels(language) {
    if (!cardLabelPromises[language]) {
      var url = new URL("tps-cards." + language + ".json", dataUrl).href;
      cardLabelPromises[language] = fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error(url + ": " + response.status);
        return response.json();
      });
    }
    return cardLabelPromises[language];
  }

  // A card page: the same inputs as a model page, minus the card filters. The built tables show the
  // default inputs; any other view is worked out here, for every model on this card.
  function setUpCard(form) {
    var page = form.closest(".tps-card");
    var box = page && page.querySelector(".tps-card-tables");
    if (!box) return;
    var ui = uiLabels() || {};
    var cardId = page.getAttribute("data-card");
    var language = document.documentElement.lang || "en";
    var builtHtml = box.innerHTML;
    var stale = Array.from(page.querySelectorAll(".tps-chart, .tps-measured-note"));
    var contextField = form.elements.context;
    var contextRange = [Number(contextField.getAttribute("data-min")) || 1,
                        Number(contextField.getAttribute("data-max")) || MAX_CONTEXT];
    var invalid = form.querySelector(".tps-invalid");
    var values = function (select) { return select ? Array.from(select.options).map(function (o) { return o.value; }) : []; };
    var options = { quants: values(form.elements.floor), kv: values(form.elements.kv), ramKinds: values(form.elements.ramkind) };
    // The form as built holds the defaults.
    var defaults = {
      context: parseContext(contextField.value, contextRange), floor: form.elements.floor.value,
      ceiling: form.elements.ceiling.value, kv: form.elements.kv.value,
      ram: form.elements.ram ? parseFloat(form.elements.ram.value) : null,
      ram_kind: form.elements.ramkind ? form.elements.ramkind.value : null,
    };
    var shownKey = "", recordLater = null, run = 0;

    function current() {
      var context = parseContext(contextField.value, contextRange);
      contextField.setAttribute("aria-invalid", context === null ? "true" : "false");
      if (invalid) {
        invalid.textContent = context === null ? ui.context_invalid || "" : "";
        invalid.hidden = context !== null;
      }
      if (context === null) return null;
      var ram = form.elements.ram ? parseFloat(form.elements.ram.value) : NaN;
      return { context: context, floor: form.elements.floor.value, ceiling: form.elements.ceiling.value,
               kv: form.elements.kv.value, search: "", vram: "", all: false,
               ram: ram >= 0 && ram <= 100000 ? ram : defaults.ram,
               ramkind: form.elements.ramkind ? form.elements.ramkind.value : defaults.ram_kind };
    }

    function show(state, html) {
      box.innerHTML = html;
      box.querySelectorAll("table.tps-table").forEach(labelColumns);
      stale.forEach(function (el) { el.hidden = html !== builtHtml; });
      form.setAttribute("data-state", "ready");
      page.dispatchEvent(new CustomEvent("tps:update", { detail: { state: state } }));
    }

    function update() {
      var state = current();
      if (!state) return;
      var key = queryString(state, defaults);
      if (key === shownKey) return;
      shownKey = key;
      var mine = ++run;
      window.clearTimeout(recordLater);
      recordLater = window.setTimeout(function () {
        var query = withOthers(key, window.location.search);
        if (query !== window.location.search) {
          window.history.replaceState(window.history.state, "", window.location.pathname + query + window.location.hash);
        }
      }, ADDRESS_DELAY_MS);
      if (!key) { show(state, builtHtml); return; }
      form.setAttribute("data-state", "busy");
      Promise.all([loadData(), loadCardLabels(language)]).then(function (loaded) {
        if (mine !== run) return;  // a later change is on its way
        var data = loaded[0], labels = loaded[1];
        api.data = data;
        var names = {};
        Object.keys(labels.models).forEach(function (id) { names[id] = labels.models[id][0]; });
        var fig = cardFigures(data, cardId, { context: state.context, floor: state.floor, ceiling: state.ceiling,
                                              kvPrecision: state.kv, ramGb: state.ram, ramKind: state.ramkind,
                                              names: names });
        api.lastCard = fig;
        show(state, cardTablesHtml(fig, new Formatter(labels.language, labels.units), labels, state.kv));
      }).catch(function (error) {
        form.setAttribute("data-state", "failed");
        if (window.console) window.console.warn("TPS Atlas card calculator:", error);
      });
    }

    form.addEventListener("submit", function (event) { event.preventDefault(); update(); });
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    var initial = readState(window.location.search, defaults, options);
    contextField.value = String(initial.context);
    form.elements.floor.value = initial.floor;
    form.elements.ceiling.value = initial.ceiling;
    form.elements.kv.value = initial.kv;
    if (form.elements.ram) form.elements.ram.value = String(initial.ram);
    if (form.elements.ramkind) form.elements.ramkind.value = initial.ramkind;
    if (queryString(initial, defaults)) update(); else form.setAttribute("data-state", "ready");
  }

  api.loadData = loadData;
  api.labelColumns = labelColumns;
  api.uiLabels = uiLabels;
  window.tpsCalculator = api;
  document.querySelectorAll("form.tps-inputs").forEach(setUp);
  document.querySelectorAll("form.tps-card-inputs").forEach(setUpCard);
})();
