static _Atomic int Counter;
int bump(void) { return ++Counter; }
