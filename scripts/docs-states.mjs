// The non-default states the docs' screenshots use, one per view (scripts/docs-screenshots.mjs for the
// English docs, scripts/docs-screenshots-zh.mjs for docs/zh/). A view without an entry is shot in its
// default state.
export const DOC_STATES = {
  waves: 'n=128&d=128&base=10000',
  frequencies: 'd=128&base=10000&n=512',
  similarity: 'scheme=sinusoidal&n=128&d=64&base=10000&pstep=24',
  buckets: 'scheme=t5&n=64&bidirectional=1&num_buckets=32&max_distance=128&seed=0',
  toy: 'theta=0.5',
  scores: 'scheme=sinusoidal&n=48&d=32&content=random&causal=1',
  rope: 'dim=128&base=10000&scaling=yarn&factor=8&orig=4096&target=32768&pair=48&pos=20000&play=0',
  permutation: 'pe=none&shuffle=1&d=16&sentence=the%20cat%20sat%20on%20the%20mat',
};
