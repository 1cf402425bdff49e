// Maps a matrix (R16UI texture of 16-bit codes, one texel per cell) through a colormap.
// Nearest-cell lookup with texelFetch: exact cells, no float-filtering extension needed.
in vec2 v_uv;
out vec4 frag_color;

uniform usampler2D u_values;  // rows x cols, R16UI codes: 65535 masked, else value = u_decode.x + code * u_decode.y
uniform vec2 u_decode;        // (lo, step) of the codes (core/kernels/quantize.h)
uniform vec2 u_range;         // value mapped to the colormap's ends: (vmin, vmax)
uniform int u_colormap;       // 0 = viridis (sequential), 1 = blue-white-red (diverging, centred at 0)
uniform vec4 u_window;        // visible part of the matrix in uv: (u0, v0, du, dv), for zoom and pan
uniform vec3 u_masked_color;  // colour of masked cells

// Viridis as a degree-6 polynomial fit (max error < 1/255 per channel).
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

// Diverging map: dark blue (t=0) -> white (t=0.5) -> dark red (t=1), perceptually even-ish ramps.
vec3 diverging(float t) {
  const vec3 blue = vec3(0.019, 0.188, 0.380);
  const vec3 mid_blue = vec3(0.263, 0.576, 0.765);
  const vec3 white = vec3(0.969, 0.969, 0.969);
  const vec3 mid_red = vec3(0.839, 0.376, 0.302);
  const vec3 red = vec3(0.404, 0.0, 0.051);
  if (t < 0.25) return mix(blue, mid_blue, t / 0.25);
  if (t < 0.5) return mix(mid_blue, white, (t - 0.25) / 0.25);
  if (t < 0.75) return mix(white, mid_red, (t - 0.5) / 0.25);
  return mix(mid_red, red, (t - 0.75) / 0.25);
}

void main() {
  ivec2 size = textureSize(u_values, 0);  // (cols, rows)
  vec2 uv = u_window.xy + v_uv * u_window.zw;
  ivec2 cell = clamp(ivec2(floor(uv * vec2(size))), ivec2(0), size - ivec2(1));
  uint code = texelFetch(u_values, cell, 0).r;
  float v = u_decode.x + float(code) * u_decode.y;
  if (code == 65535u) {
    frag_color = vec4(u_masked_color, 1.0);
    return;
  }
  float span = u_range.y - u_range.x;
  float t = span > 0.0 ? clamp((v - u_range.x) / span, 0.0, 1.0) : 0.5;
  vec3 rgb = u_colormap == 1 ? diverging(t) : viridis(clamp(t, 0.0, 1.0));
  frag_color = vec4(clamp(rgb, 0.0, 1.0), 1.0);
}
