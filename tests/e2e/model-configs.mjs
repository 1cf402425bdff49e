// Config.json texts the Model view tests and the docs screenshots paste on the canvas (the models of 2026
// whose configs are not presets).
import { waitFrames } from './harness.mjs';

// Llama-4-Scout's positional keys (published config.json shape: llama3 with low = high = 1, NoPE every 4th
// layer, chunked attention 8192, temperature tuning; the vision tower's rope_theta is not read).
export const scoutNope = Array.from({ length: 48 }, (_, i) => ((i + 1) % 4 !== 0 ? 1 : 0));
export const llama4 = {
  architectures: ['Llama4ForConditionalGeneration'], model_type: 'llama4',
  text_config: {
    model_type: 'llama4_text', attention_chunk_size: 8192, attn_scale: 0.1, attn_temperature_tuning: true, floor_scale: 8192,
    head_dim: 128, hidden_size: 5120, max_position_embeddings: 10485760, no_rope_layers: scoutNope, num_attention_heads: 40,
    num_hidden_layers: 48, num_key_value_heads: 8, rope_theta: 500000.0,
    rope_scaling: { factor: 16.0, high_freq_factor: 1.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
  },
  vision_config: { model_type: 'llama4_vision_model', rope_theta: 10000 },
};
// Qwen2-VL-7B-Instruct's (rope_scaling type mrope, sections 16/24/24; sliding window off).
export const qwen2vl = {
  architectures: ['Qwen2VLForConditionalGeneration'], model_type: 'qwen2_vl', hidden_size: 3584, num_attention_heads: 28,
  num_hidden_layers: 28, num_key_value_heads: 4, max_position_embeddings: 32768, rope_theta: 1000000.0,
  sliding_window: 32768, use_sliding_window: false, max_window_layers: 28,
  rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] },
  vision_config: { depth: 32, embed_dim: 1280, num_heads: 16, spatial_merge_size: 2, spatial_patch_size: 14, temporal_patch_size: 2 },
};

// Pastes `config` (as JSON text) on the focused canvas, as a reader does, and waits for the Model view.
export async function pasteConfig(page, config) {
  await page.focus('#canvas');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.getElementById('canvas').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, JSON.stringify(config, null, 2));
  await page.waitForFunction(() => {
    const s = window.posenc.getState();
    return s.view === 'model' && s.model === 'custom';
  }, null, { timeout: 20000 });
  await waitFrames(page, 3);
}
