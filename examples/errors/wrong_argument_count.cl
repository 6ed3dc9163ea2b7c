// Built-ins and user functions check their argument counts.
float scale(float x, float k) { return x * k; }
float a = scale(2.0f);
