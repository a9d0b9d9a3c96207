// The functions the stack map tests call, and a main to link them with.
void ext(long X) { (void)X; }
void safepoint(void) {}
int main(void) { return 0; }
