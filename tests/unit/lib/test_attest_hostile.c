// SPDX-License-Identifier: GPL-2.0-only
#include <cmocka.h>
int main(void) { return 0; }
