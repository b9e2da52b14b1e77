"""All-pairs drivers: dense Floyd-Warshall, batched SSSP, Johnson."""
