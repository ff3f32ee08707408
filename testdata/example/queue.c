int queue_depth(void) { return 8; }
