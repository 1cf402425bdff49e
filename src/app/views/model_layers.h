// The Model view's layer strip: one cell per decoder layer (ModelPosition::per_layer) with its attention
// kind (full / sliding / chunked / linear), window, RoPE or NoPE, which RoPE entry, sinks and query scale;
// a legend, a tooltip per cell, and the same content as text (for the live region and tests).
#pragma once

#include <string>
#include <vector>

#include "core/models/model_config.h"

namespace posenc::app {

// One layer in words: "full attention, NoPE, query scale llama4_temperature (floor_scale 8192, attn_scale
// 0.1)", "chunked attention (chunk 8192), RoPE", "sliding attention (window 4096), RoPE layers.sliding_attention, sinks".
std::string layer_text(const LayerSpec& layer);

// Every layer in words, identical layers grouped: "48 layers. Layers 0-2, 4-6, ...: chunked attention (chunk
// 8192), RoPE. Layers 3, 7, ..., 47 (every 4th from 3): full attention, NoPE, ..." ("" without per_layer).
std::string layer_strip_text(const std::vector<LayerSpec>& layers);

// Which way the layers attend, how many mix no tokens and which select keys, in a line (the Model view's card):
// "attention: bidirectional (an encoder: ...)", "...; 9 of 80 layers mix no tokens".
std::string layer_summary_text(const std::vector<LayerSpec>& layers);

// Layer indices as text: runs "a-b", an arithmetic step "3, 7, ..., 47 (every 4th from 3)".
std::string layer_index_text(const std::vector<int>& indices);

// The height draw_layer_strip takes at `width` (legend included).
float layer_strip_height(const std::vector<LayerSpec>& layers, float width);

// Draws the strip at the cursor, `width` wide: cells wrapped into rows, each with its kind's letter, fill
// from the palette (theme-readable) and a hatch for a layer without position encoding; a legend of what
// occurs. Probes: "strip.layers" (the cells), "strip.layer.<i>" (each cell), "strip.legend".
void draw_layer_strip(const std::vector<LayerSpec>& layers, float width);

}  // namespace posenc::app
