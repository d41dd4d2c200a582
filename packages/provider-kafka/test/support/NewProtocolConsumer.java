import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A consumer on Kafka 4's consumer group protocol (KIP-848, group.protocol=consumer), which kafkajs
 * cannot join with: reads `max` records of `topic` from the earliest offset, commits them, prints
 * "committed <n>" and stays in its group, polling, until its standard input closes.
 * Run with Java's source launcher: java -cp '<kafka lib>/*' NewProtocolConsumer.java bootstrap group topic max
 */
public class NewProtocolConsumer {
  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    props.put("bootstrap.servers", args[0]);
    props.put("group.id", args[1]);
    props.put("group.protocol", "consumer");
    props.put("auto.offset.reset", "earliest");
    props.put("enable.auto.commit", "false");
    props.put("max.poll.records", "1");
    props.put("key.deserializer", ByteArrayDeserializer.class.getName());
    props.put("value.deserializer", ByteArrayDeserializer.class.getName());
    int max = Integer.parseInt(args[3]);
    Thread stdin = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {}
      } catch (Exception ignored) {
      }
      System.exit(0);
    });
    stdin.setDaemon(true);
    stdin.start();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(args[2]));
      int read = 0;
      boolean told = false;
      while (true) {
        if (read < max) {
          ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
          read += records.count();
          if (records.count() > 0) consumer.commitSync();
        } else {
          if (!told) {
            System.out.println("committed " + read);
            System.out.flush();
            told = true;
          }
          // Stays a member without reading more: pause what it is assigned, keep heartbeating.
          consumer.pause(consumer.assignment());
          consumer.poll(Duration.ofMillis(200));
        }
      }
    }
  }
}
