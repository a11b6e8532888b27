double blend(double a, double b, double t) { return a + (b - a) * t * t * (3 - 2 * t); }
