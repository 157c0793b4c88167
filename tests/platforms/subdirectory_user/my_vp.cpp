// SPDX-License-Identifier: BSD-3-Clause
// The embedding design's own program (configured, never built: the test checks the names).
int main() { return 0; }
