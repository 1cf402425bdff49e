// Full-quad vertex shader for heatmaps: the quad covers the target framebuffer, v_uv in [0,1]^2
// with v_uv.y = 0 at the first matrix row (drawn at the top by ImGui::Image).
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
void main() {
  v_uv = a_pos * 0.5 + 0.5;
  gl_Position = vec4(a_pos, 0.0, 1.0);
}
