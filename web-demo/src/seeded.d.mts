/** mulberry32 seeded with `seed`: a function returning the next draw, uniform in [0, 1). */
export function seededRandom(seed: number): () => number;
