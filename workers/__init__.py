"""The service: the job codec, the local executor, the Redis Streams queue, workers, the CLI."""
