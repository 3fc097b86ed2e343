-- docker-compose only: the fitness shard databases and the tidemark user's rights (the local stack
-- manager does the same on a machine without Docker; see src/devstack/mariadb.ts).
CREATE DATABASE IF NOT EXISTS tidemark_fitness_0 CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
CREATE DATABASE IF NOT EXISTS tidemark_fitness_1 CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
GRANT ALL PRIVILEGES ON `tidemark\_%`.* TO 'tidemark'@'%';
FLUSH PRIVILEGES;
