-- The seed's walkthrough (seeds/000), as far as the registry supports it today. From the clone:
--   npx srctl apply -f docs/examples/walkthrough.sql --wait
-- apps/cli/test/readme.test.ts runs this file against a real registry, and checks that the README
-- shows it as it is.
DECLARE CLUSTER "cluster001";
DECLARE CLUSTER "cluster002";

CREATE STREAM "widgets_v0" WITH CONFIG {
    "acme.kafka": {
      "owner": "bob@acme.com",
      "team": "widgets-team",
      "costcenter": "341D",
    },
    "apache.kafka": {
      "partitions": 10,
      "replication": 4,
      "min_isr": 2,
      "compacted": "true",
      "compression": "snappy",
      "unclean.leader.election.enable": "false",
      "key.serde": "string",
      "value.serde": "specific",
    }
  } WITH PRODUCER CONFIG {
     "apache.kafka": {
       "acks": "all",
       "retries": 0,
       "enable.idempotence": "false",
     }
  } WITH CONSUMER CONFIG {
     "apache.kafka": {
       "acks": "all",
       "retries": 0,
       "enable.idempotence": "false",
     }
  };

CREATE BINDING "widgets_v0" TO CLUSTER "cluster001";
CREATE BINDING "widgets_v0" TO CLUSTER "cluster002" WITH CONFIG {
  -- override any cluster specific stream configmaps here
  "apache.kafka": { "partitions": 20 },
} WITH PRODUCER CONFIG {
  "apache.kafka": { "acks": "1" },
};

DESCRIBE BINDINGS "widgets_v0";

-- A map given replaces that map (its keys left out are gone); maps not named, here
-- "apache.kafka", stay. "acme.kafka": null would remove the map.
UPDATE STREAM "widgets_v0" WITH CONFIG {
  "acme.kafka": { "owner": "alice@acme.com", "team": "widgets-team", "costcenter": "341D" },
};
DESCRIBE STREAM "widgets_v0";
