#include <cstdio>
int main() { std::puts("racer"); return 0; }
